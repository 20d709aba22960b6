/** The `[workspace]` section: the local workspace service, embedded or standalone. */
import type { SectionOf, SectionSpec } from './spec.js'
import { listenCheck, nonNegative, positive } from './checks.js'
import { CATEGORY_NAMES } from '../shared/category.js'

function categoriesCheck(v: string[]): string | undefined {
  const bad = v.find((c) => !(CATEGORY_NAMES as string[]).includes(c))
  return bad === undefined ? undefined : `unknown category ${JSON.stringify(bad)}`
}

export const WORKSPACE_SCHEMA = {
  engine: {
    type: 'string',
    default: 'duckdb',
    env: 'ENV_WORKSPACE_ENGINE',
    values: ['duckdb', 'clickhouse'],
  },
  embedded: { type: 'bool', default: true, env: 'ENV_WORKSPACE_EMBEDDED' },
  embedded_retry_initial: {
    type: 'duration',
    default: 5_000,
    env: 'ENV_WORKSPACE_EMBEDDED_RETRY_INITIAL',
    check: nonNegative,
  },
  embedded_retry_max: {
    type: 'duration',
    default: 300_000,
    env: 'ENV_WORKSPACE_EMBEDDED_RETRY_MAX',
    check: positive,
  },
  /**
   * The largest body the agent uploads to its embedded workspace, before compression (other
   * upstreams: `[dataway] max_raw_body_size`). Larger bodies make larger commits, so the
   * workspace stores faster; its memory follows the bytes in flight (`upload_concurrency`).
   */
  embedded_body_size: {
    type: 'bytes',
    default: 2 * 1024 * 1024,
    env: 'ENV_WORKSPACE_EMBEDDED_BODY_SIZE',
    check: (v: number) => (v >= 64 * 1024 ? undefined : 'at least 64KiB'),
  },
  listen: {
    type: 'string',
    default: '127.0.0.1:9528',
    env: 'ENV_WORKSPACE_LISTEN',
    check: listenCheck,
  },
  data_dir: { type: 'string', default: '', env: 'ENV_WORKSPACE_DATA_DIR' },
  default_workspace: { type: 'string', default: 'default', env: 'ENV_WORKSPACE_DEFAULT' },
  max_body_size: {
    type: 'bytes',
    default: 64 * 1024 * 1024,
    env: 'ENV_WORKSPACE_MAX_BODY_SIZE',
    check: positive,
  },
  max_pending_points: {
    type: 'int',
    default: 1_000_000,
    env: 'ENV_WORKSPACE_MAX_PENDING_POINTS',
    check: positive,
  },
  ingest_queue_bytes: {
    type: 'bytes',
    default: 256 * 1024 * 1024,
    env: 'ENV_WORKSPACE_INGEST_QUEUE_BYTES',
    check: positive,
  },
  commit_max_points: {
    type: 'int',
    default: 200_000,
    env: 'ENV_WORKSPACE_COMMIT_MAX_POINTS',
    check: positive,
  },
  series_categories: {
    type: 'strings',
    default: ['metric'],
    env: 'ENV_WORKSPACE_SERIES_CATEGORIES',
    check: categoriesCheck,
  },
  ingest_quota: {
    type: 'int',
    default: 0,
    env: 'ENV_WORKSPACE_INGEST_QUOTA',
    check: nonNegative,
  },
  replay_max_bytes: {
    type: 'bytes',
    default: 256 * 1024 * 1024,
    env: 'ENV_WORKSPACE_REPLAY_MAX_BYTES',
    check: positive,
  },
  query_timeout: {
    type: 'duration',
    default: 30_000,
    env: 'ENV_WORKSPACE_QUERY_TIMEOUT',
    check: positive,
  },
  max_result_rows: {
    type: 'int',
    default: 100_000,
    env: 'ENV_WORKSPACE_MAX_RESULT_ROWS',
    check: positive,
  },
  // Sized for a small host (2 cores, a few GB) where the agent runs beside the workspace: larger
  // sorts and aggregations spill to disk rather than grow the process.
  memory_limit: {
    type: 'bytes',
    default: 256 * 1024 * 1024,
    env: 'ENV_WORKSPACE_MEMORY_LIMIT',
    check: (v: number) => (v >= 64 * 1024 * 1024 ? undefined : 'at least 64MiB'),
  },
  threads: { type: 'int', default: 2, env: 'ENV_WORKSPACE_THREADS', check: nonNegative },
  decode_workers: {
    type: 'int',
    default: 1,
    env: 'ENV_WORKSPACE_DECODE_WORKERS',
    check: nonNegative,
  },
  dedupe_window: {
    type: 'duration',
    default: 24 * 3_600_000,
    env: 'ENV_WORKSPACE_DEDUPE_WINDOW',
    check: positive,
  },
  dedupe_by_content: { type: 'bool', default: true, env: 'ENV_WORKSPACE_DEDUPE_BY_CONTENT' },
  retention_metric: {
    type: 'duration',
    default: 30 * 86_400_000,
    env: 'ENV_WORKSPACE_RETENTION_METRIC',
    check: nonNegative,
  },
  retention_logging: {
    type: 'duration',
    default: 7 * 86_400_000,
    env: 'ENV_WORKSPACE_RETENTION_LOGGING',
    check: nonNegative,
  },
  retention_default: {
    type: 'duration',
    default: 30 * 86_400_000,
    env: 'ENV_WORKSPACE_RETENTION_DEFAULT',
    check: nonNegative,
  },
  retention_interval: {
    type: 'duration',
    default: 600_000,
    env: 'ENV_WORKSPACE_RETENTION_INTERVAL',
    check: positive,
  },
  /** Wrong API keys (login form, DF-API-KEY) one client address may send per window. */
  login_failures: {
    type: 'int',
    default: 20,
    env: 'ENV_WORKSPACE_LOGIN_FAILURES',
    check: positive,
  },
  login_window: {
    type: 'duration',
    default: 60_000,
    env: 'ENV_WORKSPACE_LOGIN_WINDOW',
    check: positive,
  },
  /** Client addresses whose failures are remembered; beyond, the longest idle is forgotten. */
  login_clients: {
    type: 'int',
    default: 10_000,
    env: 'ENV_WORKSPACE_LOGIN_CLIENTS',
    check: positive,
  },
  object_freshness: {
    type: 'duration',
    default: 900_000,
    env: 'ENV_WORKSPACE_OBJECT_FRESHNESS',
    check: nonNegative,
  },
} as const satisfies SectionSpec

export type WorkspaceConfig = SectionOf<typeof WORKSPACE_SCHEMA>
