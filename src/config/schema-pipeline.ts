/** The `[pipeline]` section of the config schema (scripts, sandbox limits, reload). */
import { isZone } from '../shared/time-zone.js'
import type { SectionOf, SectionSpec } from './spec.js'

const atLeast = (min: number, what: string) => (v: number) =>
  v >= min ? undefined : `at least ${what}`

export const PIPELINE_SCHEMA = {
  enable: { type: 'bool', default: true, env: 'ENV_PIPELINE_ENABLE' },
  dir: { type: 'string', default: '', env: 'ENV_PIPELINE_DIR' },
  default_pipeline: { type: 'tags', default: {}, env: 'ENV_PIPELINE_DEFAULT_PIPELINE' },
  timezone: {
    type: 'string',
    default: '',
    env: 'ENV_PIPELINE_TIMEZONE',
    check: (v: string) => (v === '' || isZone(v) ? undefined : 'not a known time zone'),
  },
  memory_limit: {
    type: 'bytes',
    default: 64 * 1024 * 1024,
    env: 'ENV_PIPELINE_MEMORY_LIMIT',
    check: atLeast(4 * 1024 * 1024, '4MiB'),
  },
  max_stack_size: {
    type: 'bytes',
    default: 512 * 1024,
    env: 'ENV_PIPELINE_MAX_STACK_SIZE',
    check: atLeast(64 * 1024, '64KiB'),
  },
  batch_timeout: {
    type: 'duration',
    default: 1000,
    env: 'ENV_PIPELINE_BATCH_TIMEOUT',
    check: atLeast(10, '10ms'),
  },
  max_batch: { type: 'int', default: 1000, env: 'ENV_PIPELINE_MAX_BATCH', check: atLeast(1, '1') },
  max_created_points: {
    type: 'int',
    default: 10_000,
    env: 'ENV_PIPELINE_MAX_CREATED_POINTS',
    check: atLeast(0, '0'),
  },
  max_output_bytes: {
    type: 'bytes',
    default: 64 * 1024 * 1024,
    env: 'ENV_PIPELINE_MAX_OUTPUT_BYTES',
    check: atLeast(64 * 1024, '64KiB'),
  },
  cache_max_entries: {
    type: 'int',
    default: 10_000,
    env: 'ENV_PIPELINE_CACHE_MAX_ENTRIES',
    check: atLeast(0, '0'),
  },
  user_agent_cache_entries: {
    type: 'int',
    default: 4096,
    env: 'ENV_PIPELINE_USER_AGENT_CACHE_ENTRIES',
    check: atLeast(0, '0'),
  },
  max_window_streams: {
    type: 'int',
    default: 1000,
    env: 'ENV_PIPELINE_MAX_WINDOW_STREAMS',
    check: atLeast(0, '0'),
  },
  agg_max_buckets: {
    type: 'int',
    default: 100,
    env: 'ENV_PIPELINE_AGG_MAX_BUCKETS',
    check: atLeast(0, '0'),
  },
  agg_max_series: {
    type: 'int',
    default: 1000,
    env: 'ENV_PIPELINE_AGG_MAX_SERIES',
    check: atLeast(1, '1'),
  },
  refer_table_url: { type: 'string', default: '', env: 'ENV_REFER_TABLE_URL' },
  refer_table_pull_interval: {
    type: 'duration',
    default: 300_000,
    env: 'ENV_REFER_TABLE_PULL_INTERVAL',
    check: atLeast(1000, '1s'),
  },
  refer_table_max_bytes: {
    type: 'bytes',
    default: 16 * 1024 * 1024,
    env: 'ENV_REFER_TABLE_MAX_BYTES',
    check: atLeast(1024, '1KiB'),
  },
  refer_table_timeout: {
    type: 'duration',
    default: 30_000,
    env: 'ENV_REFER_TABLE_TIMEOUT',
    check: atLeast(100, '100ms'),
  },
  http_request_enable: { type: 'bool', default: false, env: 'ENV_PIPELINE_HTTP_REQUEST_ENABLE' },
  http_request_allow_internal: {
    type: 'bool',
    default: false,
    env: 'ENV_PIPELINE_HTTP_REQUEST_ALLOW_INTERNAL',
  },
  http_request_timeout: {
    type: 'duration',
    default: 1000,
    env: 'ENV_PIPELINE_HTTP_REQUEST_TIMEOUT',
    check: atLeast(10, '10ms'),
  },
  http_request_max_bytes: {
    type: 'bytes',
    default: 1024 * 1024,
    env: 'ENV_PIPELINE_HTTP_REQUEST_MAX_BYTES',
    check: atLeast(1024, '1KiB'),
  },
  http_request_max_calls: {
    type: 'int',
    default: 10,
    env: 'ENV_PIPELINE_HTTP_REQUEST_MAX_CALLS',
    check: atLeast(0, '0'),
  },
  debug_concurrency: {
    type: 'int',
    default: 1,
    env: 'ENV_PIPELINE_DEBUG_CONCURRENCY',
    check: atLeast(1, '1'),
  },
  reload_interval: {
    type: 'duration',
    default: 5000,
    env: 'ENV_PIPELINE_RELOAD_INTERVAL',
    check: atLeast(100, '100ms'),
  },
} as const satisfies SectionSpec

export type PipelineConfig = SectionOf<typeof PIPELINE_SCHEMA>
