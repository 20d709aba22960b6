/** The `prom` input's keys, named as the reference agent's `[[inputs.prom]]` names them. */
import { positive } from '../../config/checks.js'
import type { SectionOf, SectionSpec } from '../../config/spec.js'
import { commonKeys } from '../conf/common.js'

const isTable = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v)

/** `[inputs.prom.tags_rename]`: `overwrite_exist_tags` and a `mapping` table of strings. */
function renameCheck(v: Record<string, unknown>): string | undefined {
  for (const [k, x] of Object.entries(v)) {
    if (k === 'overwrite_exist_tags') {
      if (typeof x !== 'boolean') return 'overwrite_exist_tags: expected true or false'
    } else if (k === 'mapping') {
      if (!isTable(x) || !Object.values(x as object).every((s) => typeof s === 'string'))
        return 'mapping: expected a table of strings'
    } else return `${k}: unknown key`
  }
  return undefined
}

function regexesCheck(v: string[]): string | undefined {
  for (const r of v)
    try {
      new RegExp(r)
    } catch {
      return `invalid regular expression ${JSON.stringify(r)}`
    }
  return undefined
}

const TYPES = ['counter', 'gauge', 'histogram', 'summary', 'untyped', 'info']
const typesCheck = (v: string[]) =>
  v.find((t) => !TYPES.includes(t.toLowerCase())) === undefined
    ? undefined
    : `expected some of ${TYPES.join(', ')}`

const urlsCheck = (v: string[]) => {
  for (const u of v) if (!/^https?:\/\/[^/]/.test(u)) return `not an http(s) URL: ${u}`
  return undefined
}

const str = { type: 'string', default: '' } as const
const strs = { type: 'strings', default: [] } as const
const no = { type: 'bool', default: false } as const

export const PROM_SCHEMA = {
  ...commonKeys(30_000),
  urls: { type: 'strings', default: [], check: urlsCheck },
  timeout: { type: 'duration', default: 30_000, check: positive },
  /** Reference names the agent accepts without using: the pipeline source and election. */
  source: { type: 'string', default: 'prom' },
  election: { type: 'bool', default: true },
  ignore_req_err: no,
  metric_types: { type: 'strings', default: [], check: typesCheck },
  metric_name_filter: { type: 'strings', default: [], check: regexesCheck },
  metric_name_filter_ignore: { type: 'strings', default: [], check: regexesCheck },
  measurement_prefix: str,
  measurement_name: str,
  keep_exist_metric_name: no,
  honor_timestamps: { type: 'bool', default: true },
  tls_open: no,
  tls_ca: str,
  tls_cert: str,
  tls_key: str,
  insecure_skip_verify: no,
  ca_certs: strs,
  cert: str,
  cert_key: str,
  ca_certs_base64: strs,
  cert_base64: str,
  cert_key_base64: str,
  server_name: str,
  disable_host_tag: no,
  disable_instance_tag: no,
  disable_info_tag: no,
  tags_ignore: strs,
  tags_rename: { type: 'table', default: {}, check: renameCheck },
  http_headers: { type: 'tags', default: {} },
  auth: { type: 'tags', default: {} },
  /** Bounds of one scrape: a larger body is refused, series past the limit are cut. */
  max_body_size: { type: 'bytes', default: 32 * 1024 * 1024, check: positive },
  max_series: { type: 'int', default: 100_000, check: positive },
} as const satisfies SectionSpec

export type PromConf = SectionOf<typeof PROM_SCHEMA>
