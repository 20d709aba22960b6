/** The `[dialtesting]` section: the dial-test debug API and the targets it refuses. */
import type { SectionOf, SectionSpec } from './spec.js'

const atLeastOne = (v: number) => (v >= 1 ? undefined : 'at least 1')

/** A CIDR as `10.0.0.0/8` or `fd00::/8`; the env form may be a JSON list (`["a","b"]`). */
export function cidrEntries(list: string[]): string[] {
  return list.map((s) => s.replace(/[[\]"'\s]/g, '')).filter(Boolean)
}

const cidrCheck = (v: string[]) => {
  for (const c of cidrEntries(v)) {
    const m = /^([0-9a-fA-F:.]+)\/(\d{1,3})$/.exec(c)
    if (!m) return `${c}: not a CIDR`
  }
  return undefined
}

export const DIALTEST_SCHEMA = {
  enable_debug_api: { type: 'bool', default: false, env: 'ENV_INPUT_DIALTESTING_ENABLE_DEBUG_API' },
  disable_internal_network_task: {
    type: 'bool',
    default: false,
    env: 'ENV_INPUT_DIALTESTING_DISABLE_INTERNAL_NETWORK_TASK',
  },
  disabled_internal_network_cidr_list: {
    type: 'strings',
    default: [],
    env: 'ENV_INPUT_DIALTESTING_DISABLED_INTERNAL_NETWORK_CIDR_LIST',
    check: cidrCheck,
  },
  debug_concurrency: {
    type: 'int',
    default: 16,
    env: 'ENV_INPUT_DIALTESTING_DEBUG_CONCURRENCY',
    check: atLeastOne,
  },
} as const satisfies SectionSpec

export type DialtestConfig = SectionOf<typeof DIALTEST_SCHEMA>
