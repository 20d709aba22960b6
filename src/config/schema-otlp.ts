/**
 * The `[otlp]` section: the OpenTelemetry receiver (OTLP/HTTP on the agent's port). Key names
 * follow the reference's `[[inputs.opentelemetry]]` where it has one.
 */
import { listenCheck, nonNegative, positive } from './checks.js'
import type { SectionSpec } from './spec.js'

const rate = (v: number) => (v >= 0 && v <= 1 ? undefined : 'must be between 0 and 1')
const route = (v: string) => (v.startsWith('/') ? undefined : 'must start with /')
/** `close_resource`: each service's patterns, every one a regular expression JavaScript compiles. */
function closeResourceError(v: Record<string, unknown>): string | undefined {
  for (const [service, list] of Object.entries(v)) {
    if (!Array.isArray(list) || !list.every((s) => typeof s === 'string'))
      return `${service}: expected a list of patterns`
    for (const s of list as string[]) {
      try {
        new RegExp(s)
      } catch (e) {
        return `${service}: ${JSON.stringify(s)}: ${(e as Error).message}`
      }
    }
  }
  return undefined
}

const statusOk = (v: number) => (v === 200 || v === 202 ? undefined : 'must be 200 or 202')

export const OTLP_SCHEMA = {
  /** The OTLP routes exist only when on. */
  enable: { type: 'bool', default: true, env: 'ENV_OTLP_ENABLE' },
  trace_api: {
    type: 'string',
    default: '/otel/v1/traces',
    env: 'ENV_OTLP_TRACE_API',
    check: route,
  },
  metric_api: {
    type: 'string',
    default: '/otel/v1/metrics',
    env: 'ENV_OTLP_METRIC_API',
    check: route,
  },
  logs_api: { type: 'string', default: '/otel/v1/logs', env: 'ENV_OTLP_LOGS_API', check: route },
  http_status_ok: {
    type: 'int',
    default: 200,
    env: 'ENV_OTLP_HTTP_STATUS_OK',
    check: statusOk,
    live: true,
  },
  customer_tags: { type: 'strings', default: [], env: 'ENV_OTLP_CUSTOMER_TAGS' },
  customer_tags_all: { type: 'bool', default: false, env: 'ENV_OTLP_CUSTOMER_TAGS_ALL' },
  split_service_name: { type: 'bool', default: false, env: 'ENV_OTLP_SPLIT_SERVICE_NAME' },
  del_message: { type: 'bool', default: false, env: 'ENV_OTLP_DEL_MESSAGE' },
  /** KiB of log body per point; longer bodies become several points. */
  log_max: { type: 'int', default: 500, env: 'ENV_OTLP_LOG_MAX', check: positive },
  sampling_rate: {
    type: 'number',
    default: 1,
    env: 'ENV_OTLP_SAMPLING_RATE',
    check: rate,
    live: true,
  },
  /** Service → span name patterns; a resource group with a matching span is not kept. */
  close_resource: {
    type: 'table',
    default: {},
    env: 'ENV_OTLP_CLOSE_RESOURCE',
    check: closeResourceError,
    live: true,
  },
  max_attributes: {
    type: 'int',
    default: 128,
    env: 'ENV_OTLP_MAX_ATTRIBUTES',
    check: nonNegative,
    live: true,
  },
  tags: { type: 'tags', default: {}, env: 'ENV_OTLP_TAGS' },
  /** OTLP/gRPC; in container mode only when ENV_OTLP_GRPC_ENABLE is set (agent/build.ts). */
  grpc_enable: { type: 'bool', default: true, env: 'ENV_OTLP_GRPC_ENABLE' },
  grpc_listen: {
    type: 'string',
    default: '127.0.0.1:4317',
    env: 'ENV_OTLP_GRPC_LISTEN',
    check: listenCheck,
  },
} as const satisfies SectionSpec
