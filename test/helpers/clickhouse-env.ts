/**
 * The environment of a workspace (or an agent with the embedded one) over the ClickHouse at
 * `url`, with deadlines short enough that a frozen server is noticed within seconds.
 */
export function fastFailingClickHouse(url: string): Record<string, string> {
  return {
    ENV_WORKSPACE_ENGINE: 'clickhouse',
    ENV_WORKSPACE_CLICKHOUSE_URL: url,
    ENV_WORKSPACE_QUERY_TIMEOUT: '3s',
    ENV_WORKSPACE_CLICKHOUSE_INSERT_TIMEOUT: '3s',
    ENV_WORKSPACE_CLICKHOUSE_CONNECT_TIMEOUT: '1s',
  }
}
