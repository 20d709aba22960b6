/**
 * The `[ddtrace]` section: the receiver for Datadog tracers (`/v0.3|v0.4|v0.5/traces` on the
 * agent's port). Key names and environment variables follow the reference's
 * `[[inputs.ddtrace]]`; its `[inputs.ddtrace.sampler] sampling_rate` is `sampling_rate` here.
 */
import { positive } from './checks.js'
import type { SectionSpec } from './spec.js'

export const DDTRACE_ENDPOINTS = ['/v0.3/traces', '/v0.4/traces', '/v0.5/traces'] as const

const endpoints = (v: string[]) =>
  v.every((e) => (DDTRACE_ENDPOINTS as readonly string[]).includes(e))
    ? undefined
    : `each must be one of ${DDTRACE_ENDPOINTS.join(', ')}`
const rate = (v: number) => (v >= 0 && v <= 1 ? undefined : 'must be between 0 and 1')
const noLimitOrPositive = (v: number) =>
  v >= -1 ? undefined : 'must be -1 or 0 (no limit of its own) or a positive number'
const patterns = (v: string[]) => {
  for (const t of v)
    if (t.startsWith('reg:'))
      try {
        new RegExp(t.slice(4))
      } catch (e) {
        return `${t}: ${(e as Error).message}`
      }
  return undefined
}

export const DDTRACE_SCHEMA = {
  /** The routes exist only when on. */
  enable: { type: 'bool', default: true, env: 'ENV_INPUT_DDTRACE_ENABLE' },
  endpoints: {
    type: 'strings',
    default: [...DDTRACE_ENDPOINTS],
    env: 'ENV_INPUT_DDTRACE_ENDPOINTS',
    check: endpoints,
  },
  customer_tags: {
    type: 'strings',
    default: [],
    env: 'ENV_INPUT_DDTRACE_CUSTOMER_TAGS',
    check: patterns,
  },
  omit_err_status: { type: 'strings', default: [], env: 'ENV_INPUT_DDTRACE_OMIT_ERR_STATUS' },
  compatible_otel: { type: 'bool', default: false, env: 'ENV_INPUT_DDTRACE_COMPATIBLE_OTEL' },
  trace_id_64_bit_hex: {
    type: 'bool',
    default: false,
    env: 'ENV_INPUT_DDTRACE_TRACE_ID_64_BIT_HEX',
  },
  trace_128_bit_id: { type: 'bool', default: true, env: 'ENV_INPUT_DDTRACE_TRACE_128_BIT_ID' },
  del_message: { type: 'bool', default: false, env: 'ENV_INPUT_DDTRACE_DEL_MESSAGE' },
  /** Spans kept per trace; -1 or 0: no limit. */
  trace_max_spans: {
    type: 'int',
    default: 100_000,
    env: 'ENV_INPUT_DDTRACE_MAX_SPANS',
    check: noLimitOrPositive,
  },
  /** MiB of one request's body (below [http_api] max_body_size); -1 or 0: that limit only. */
  max_trace_body_mb: {
    type: 'int',
    default: 32,
    env: 'ENV_INPUT_DDTRACE_MAX_BODY_MB',
    check: noLimitOrPositive,
  },
  /** Bytes of one string in a request (a meta value, an error stack); longer is refused. */
  max_string_bytes: {
    type: 'bytes',
    default: 1024 * 1024,
    env: 'ENV_INPUT_DDTRACE_MAX_STRING_BYTES',
    check: positive,
  },
  sampling_rate: {
    type: 'number',
    default: 1,
    env: 'ENV_INPUT_DDTRACE_SAMPLING_RATE',
    check: rate,
  },
  tags: { type: 'tags', default: {}, env: 'ENV_INPUT_DDTRACE_TAGS' },
} as const satisfies SectionSpec
