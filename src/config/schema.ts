/**
 * The one config schema: every key's type, default, environment override and documentation.
 * `load.ts` validates TOML and ENV_* against it; `conf.d/ferry.conf` documents the same keys
 * (a test checks that every key here appears there).
 *
 * Section and key names follow the reference agent's datakit.conf where one exists.
 */
import { PIPELINE_SCHEMA } from './schema-pipeline.js'
import { DIALTEST_SCHEMA } from './schema-dialtest.js'
import { DATAWAY_NET_KEYS, DATAWAY_NTP_SCHEMA, IO_SCHEMA } from './schema-dataway-net.js'
import { HTTP_SCHEMA, HTTP_TLS_SCHEMA } from './schema-http.js'
import { DECODE_SCHEMA } from './schema-decode.js'
import { RUM_SCHEMA } from './schema-rum.js'
import { OTLP_SCHEMA } from './schema-otlp.js'
import { DDTRACE_SCHEMA } from './schema-ddtrace.js'
import { HEALTH_SCHEMA, TAP_SCHEMA } from './schema-ops.js'
import { WORKSPACE_SCHEMA, type WorkspaceConfig } from './schema-workspace.js'
import { WORKSPACE_CLICKHOUSE_SCHEMA } from './schema-workspace-clickhouse.js'
import { nonNegative, positive } from './checks.js'
import type { ConfigOf, SectionSpec } from './spec.js'

export type { KeySpec, KeyType } from './spec.js'

export type { WorkspaceConfig }

/** The reference agent's default host inputs on Linux. */
const HOST_INPUTS = [
  'cpu',
  'disk',
  'diskio',
  'mem',
  'swap',
  'system',
  'hostobject',
  'net',
  'host_processes',
]

const levels = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const
const urlCheck = (v: string[]) => {
  for (const u of v) {
    try {
      const url = new URL(u)
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${u}: only http and https`
    } catch {
      return `${u}: not a URL`
    }
  }
  return undefined
}

/** Section -> key -> spec. `tags` keys hold free-form string tables. */
export const SCHEMA = {
  agent: {
    hostname: { type: 'string', default: '', env: 'ENV_HOSTNAME' },
    data_dir: { type: 'string', default: 'data', env: 'ENV_DATA_DIR' },
    /**
     * Inputs that run with their default settings when no file under conf.d/ configures them.
     * In container mode none run unless ENV_DEFAULT_ENABLED_INPUTS names them (inputs/plan.ts).
     */
    default_enabled_inputs: {
      type: 'strings',
      default: HOST_INPUTS,
      env: 'ENV_DEFAULT_ENABLED_INPUTS',
      live: true,
    },
  },
  http_api: HTTP_SCHEMA,
  'http_api.tls': HTTP_TLS_SCHEMA,
  decode: DECODE_SCHEMA,
  dataway: {
    urls: { type: 'strings', default: [], env: 'ENV_DATAWAY', check: urlCheck },
    timeout: { type: 'duration', default: 30_000, env: 'ENV_DATAWAY_TIMEOUT', check: positive },
    max_raw_body_size: {
      type: 'bytes',
      default: 1024 * 1024,
      env: 'ENV_DATAWAY_MAX_RAW_BODY_SIZE',
      check: (v: number) => (v >= 64 * 1024 ? undefined : 'at least 64KiB'),
    },
    compression: {
      type: 'string',
      default: 'gzip',
      env: 'ENV_DATAWAY_COMPRESSION',
      values: ['gzip', 'zstd', 'none'],
    },
    gzip_level: {
      type: 'int',
      default: 1,
      env: 'ENV_DATAWAY_GZIP_LEVEL',
      check: (v: number) => (v >= 1 && v <= 9 ? undefined : 'between 1 and 9'),
    },
    retry_initial: {
      type: 'duration',
      default: 1_000,
      env: 'ENV_DATAWAY_RETRY_INITIAL',
      check: positive,
    },
    retry_max: { type: 'duration', default: 60_000, env: 'ENV_DATAWAY_RETRY_MAX', check: positive },
    drop_expired_package_at: {
      type: 'duration',
      default: 12 * 3_600_000,
      env: 'ENV_DATAWAY_DROP_EXPIRED_PACKAGE_AT',
      check: positive,
    },
    upload_concurrency: {
      type: 'int',
      default: 4,
      env: 'ENV_DATAWAY_UPLOAD_CONCURRENCY',
      check: positive,
    },
    shutdown_timeout: {
      type: 'duration',
      default: 5_000,
      env: 'ENV_DATAWAY_SHUTDOWN_TIMEOUT',
      check: nonNegative,
    },
    max_dead_letters: {
      type: 'int',
      default: 1000,
      env: 'ENV_DATAWAY_MAX_DEAD_LETTERS',
      check: positive,
    },
    ...DATAWAY_NET_KEYS,
  },
  'dataway.ntp': DATAWAY_NTP_SCHEMA,
  'dataway.wal': {
    path: { type: 'string', default: '', env: 'ENV_DATAWAY_WAL_PATH' },
    durability: {
      type: 'string',
      default: 'sync',
      env: 'ENV_DATAWAY_WAL_DURABILITY',
      values: ['sync', 'async'],
    },
    max_capacity_gb: {
      type: 'number',
      default: 2,
      env: 'ENV_DATAWAY_WAL_CAPACITY',
      check: positive,
    },
    max_total_capacity_gb: {
      type: 'number',
      default: 4,
      env: 'ENV_DATAWAY_WAL_TOTAL_CAPACITY',
      check: positive,
    },
    when_full: {
      type: 'string',
      default: 'reject',
      env: 'ENV_DATAWAY_WAL_WHEN_FULL',
      values: ['reject', 'drop_oldest', 'drop_newest'],
    },
    min_free_disk: {
      type: 'bytes',
      default: 256 * 1024 * 1024,
      env: 'ENV_DATAWAY_WAL_MIN_FREE_DISK',
      check: nonNegative,
    },
    /**
     * Record bytes read back (for uploads) after which the buffer's file is mapped afresh, so
     * the pages those reads made resident leave the agent's RSS. Reached, writes wait a few
     * milliseconds at the next quiet moment. 0: never (the whole file can become resident).
     */
    max_resident: {
      type: 'bytes',
      default: 64 * 1024 * 1024,
      env: 'ENV_DATAWAY_WAL_MAX_RESIDENT',
      check: nonNegative,
    },
  },
  io: IO_SCHEMA,
  global_host_tags: { '*': { type: 'tags', default: {}, env: 'ENV_GLOBAL_HOST_TAGS', live: true } },
  election: {
    enable: { type: 'bool', default: false, env: 'ENV_ENABLE_ELECTION' },
    tags: { type: 'tags', default: {}, env: 'ENV_GLOBAL_ELECTION_TAGS', live: true },
  },
  logging: {
    level: { type: 'string', default: 'info', env: 'ENV_LOG_LEVEL', values: levels, live: true },
    /** Repeated warnings of one kind: at most `rate_limit_burst` lines per window, then a count. */
    rate_limit_window: {
      type: 'duration',
      default: 10_000,
      env: 'ENV_LOG_RATE_LIMIT_WINDOW',
      check: nonNegative,
    },
    rate_limit_burst: {
      type: 'int',
      default: 5,
      env: 'ENV_LOG_RATE_LIMIT_BURST',
      check: nonNegative,
    },
  },
  pipeline: PIPELINE_SCHEMA,
  dialtesting: DIALTEST_SCHEMA,
  workspace: WORKSPACE_SCHEMA,
  'workspace.clickhouse': WORKSPACE_CLICKHOUSE_SCHEMA,
  rum: RUM_SCHEMA,
  otlp: OTLP_SCHEMA,
  ddtrace: DDTRACE_SCHEMA,
  health: HEALTH_SCHEMA,
  tap: TAP_SCHEMA,
} as const satisfies Record<string, SectionSpec>

export type Config = ConfigOf<typeof SCHEMA>
