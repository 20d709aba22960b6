/** The `[workspace.clickhouse]` section: the ClickHouse service behind the workspace. */
import type { SectionOf, SectionSpec } from './spec.js'
import { positive } from './checks.js'

function urlsCheck(v: string[]): string | undefined {
  if (!v.length) return 'at least one URL'
  const bad = v.find((u) => !/^https?:\/\/[^/]+\/?$/.test(u))
  return bad === undefined ? undefined : `not an http(s)://host:port URL: ${JSON.stringify(bad)}`
}

/** A cluster of ClickHouse's `remote_servers`, or empty. */
function clusterCheck(v: string): string | undefined {
  return /^([A-Za-z_][A-Za-z0-9_.-]{0,100})?$/.test(v)
    ? undefined
    : 'a name of letters, digits, _ . -'
}

/** `[workspace.clickhouse]`: the ClickHouse service when `[workspace] engine = "clickhouse"`. */
export const WORKSPACE_CLICKHOUSE_SCHEMA = {
  url: {
    type: 'strings',
    default: ['http://127.0.0.1:8123'],
    env: 'ENV_WORKSPACE_CLICKHOUSE_URL',
    check: urlsCheck,
  },
  database: {
    type: 'string',
    default: 'ferry',
    env: 'ENV_WORKSPACE_CLICKHOUSE_DATABASE',
    check: (v: string) =>
      /^[A-Za-z_][A-Za-z0-9_]{0,40}$/.test(v) ? undefined : 'a name of letters, digits and _',
  },
  cluster: {
    type: 'string',
    default: '',
    env: 'ENV_WORKSPACE_CLICKHOUSE_CLUSTER',
    check: clusterCheck,
  },
  nodes_cluster: {
    type: 'string',
    default: '',
    env: 'ENV_WORKSPACE_CLICKHOUSE_NODES_CLUSTER',
    check: clusterCheck,
  },
  user: { type: 'string', default: 'default', env: 'ENV_WORKSPACE_CLICKHOUSE_USER' },
  password: { type: 'string', default: '', env: 'ENV_WORKSPACE_CLICKHOUSE_PASSWORD' },
  tls_ca_file: { type: 'string', default: '', env: 'ENV_WORKSPACE_CLICKHOUSE_TLS_CA_FILE' },
  tls_cert_file: { type: 'string', default: '', env: 'ENV_WORKSPACE_CLICKHOUSE_TLS_CERT_FILE' },
  tls_key_file: { type: 'string', default: '', env: 'ENV_WORKSPACE_CLICKHOUSE_TLS_KEY_FILE' },
  tls_insecure: { type: 'bool', default: false, env: 'ENV_WORKSPACE_CLICKHOUSE_TLS_INSECURE' },
  connect_timeout: {
    type: 'duration',
    default: 2_000,
    env: 'ENV_WORKSPACE_CLICKHOUSE_CONNECT_TIMEOUT',
    check: positive,
  },
  insert_timeout: {
    type: 'duration',
    default: 15_000,
    env: 'ENV_WORKSPACE_CLICKHOUSE_INSERT_TIMEOUT',
    check: positive,
  },
  max_connections: {
    type: 'int',
    default: 16,
    env: 'ENV_WORKSPACE_CLICKHOUSE_MAX_CONNECTIONS',
    check: positive,
  },
  series_cache_rows: {
    type: 'int',
    default: 200_000,
    env: 'ENV_WORKSPACE_CLICKHOUSE_SERIES_CACHE_ROWS',
    check: positive,
  },
  ddl_wait: {
    type: 'duration',
    default: 10_000,
    env: 'ENV_WORKSPACE_CLICKHOUSE_DDL_WAIT',
    check: positive,
  },
} as const satisfies SectionSpec

export type WorkspaceClickHouseConfig = SectionOf<typeof WORKSPACE_CLICKHOUSE_SCHEMA>
