/**
 * The processes `bench:cluster` measures: a clickhouse-server child on free loopback ports (the
 * tests' starter), `ferry workspace` instances (compiled) on ClickHouse or on DuckDB, and the
 * figures read from /proc: CPU time of every thread and peak RSS.
 */
import { ClickHouseClient } from '../../src/workspace/store/clickhouse/client.js'
import { ClickHouseMetadata } from '../../src/workspace/store/clickhouse/metadata.js'
import { startClickHouse, type ClickHouseServer } from '../../test/helpers/clickhouse.js'
import { peakRssOf } from './go-peer.js'
import { startWorkspace } from './workspace-fill.js'
import { cpuMs } from './workspace-ingest.js'
import type { Child } from './child.js'

export const PREFIX = 'bench'

export interface ClickHouse {
  server: ClickHouseServer
  client: ClickHouseClient
  /** The bench workspace's id and data token. */
  wsId: string
  token: string
  /** One value of a query (the first column of the first row). */
  one(sql: string): Promise<string>
  command(sql: string, timeoutMs?: number): Promise<void>
  stop(): Promise<void>
}

export async function startBenchClickHouse(): Promise<ClickHouse> {
  const server = await startClickHouse()
  const client = new ClickHouseClient({
    urls: [server.url],
    user: 'default',
    password: '',
    tls: { ca: '', cert: '', key: '', insecureSkipVerify: false },
    connectTimeoutMs: 5000,
    maxConnections: 4,
  })
  const meta = await ClickHouseMetadata.open(client, {
    prefix: PREFIX,
    replayMaxBytes: 1 << 20,
    timeoutMs: 30_000,
  })
  const ws = await meta.accounts.ensure('bench')
  return {
    server,
    client,
    wsId: ws.id,
    token: ws.token,
    one: async (sql) => String((await client.query(sql, { timeoutMs: 600_000 })).rows[0]?.[0]),
    command: (sql, timeoutMs = 600_000) => client.command(sql, { timeoutMs }),
    stop: async () => {
      await client.close()
      await server.stop()
    },
  }
}

/** `count` instances of `ferry workspace` over `ch`, each with its own (unused) data dir. */
export async function clickhouseInstances(ch: ClickHouse, dirs: string[]): Promise<Child[]> {
  const env = {
    ENV_WORKSPACE_ENGINE: 'clickhouse',
    ENV_WORKSPACE_CLICKHOUSE_URL: ch.server.url,
    ENV_WORKSPACE_CLICKHOUSE_DATABASE: PREFIX,
    ENV_WORKSPACE_DEDUPE_BY_CONTENT: 'false',
  }
  return Promise.all(dirs.map((d) => startWorkspace(d, env)))
}

export function duckdbInstance(dir: string): Promise<Child> {
  return startWorkspace(dir, { ENV_WORKSPACE_DEDUPE_BY_CONTENT: 'false' })
}

/** CPU ms and peak RSS (MB) of a process, read now. */
export function usage(pid: number | undefined): { cpuMs: number; rssMb: number } {
  return { cpuMs: pid ? cpuMs(pid) : NaN, rssMb: peakRssOf(pid) }
}
