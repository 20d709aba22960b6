/**
 * The ClickHouse side of store/open.ts: one client from `[workspace.clickhouse]` shared by the
 * engine and the metadata store, closed after both.
 */
import fs from 'node:fs'
import type { WorkspaceClickHouseConfig } from '../../../config/schema-workspace-clickhouse.js'
import type { WorkspaceConfig } from '../../../config/schema.js'
import { ClickHouseClient } from './client.js'
import { ClickHouseEngine } from './engine.js'
import type { ClusterNames } from './layout-types.js'
import { ClickHouseMetadata } from './metadata.js'

const read = (file: string) => (file ? fs.readFileSync(file, 'utf8') : '')

export function clickHouseClient(ch: WorkspaceClickHouseConfig): ClickHouseClient {
  return new ClickHouseClient({
    urls: ch.url,
    user: ch.user,
    password: ch.password,
    tls: {
      ca: read(ch.tls_ca_file),
      cert: read(ch.tls_cert_file),
      key: read(ch.tls_key_file),
      insecureSkipVerify: ch.tls_insecure,
    },
    connectTimeoutMs: ch.connect_timeout,
    maxConnections: ch.max_connections,
    sticky: ch.cluster !== '',
  })
}

/** The clusters of `[workspace.clickhouse] cluster` (layout.ts), or null for one node. */
export function clusterNames(ch: WorkspaceClickHouseConfig): ClusterNames | null {
  if (!ch.cluster) return null
  return { data: ch.cluster, nodes: ch.nodes_cluster || `${ch.cluster}_nodes` }
}

export async function openClickHouse(
  cfg: WorkspaceConfig,
  ch: WorkspaceClickHouseConfig,
): Promise<{ client: ClickHouseClient; engine: ClickHouseEngine; meta: ClickHouseMetadata }> {
  const client = clickHouseClient(ch)
  try {
    const meta = await ClickHouseMetadata.open(client, {
      prefix: ch.database,
      replayMaxBytes: cfg.replay_max_bytes,
      timeoutMs: cfg.query_timeout,
      cluster: clusterNames(ch),
      ddlWaitMs: ch.ddl_wait,
    })
    const engine = await ClickHouseEngine.open(client, {
      prefix: ch.database,
      dedupeWindowMs: cfg.dedupe_window,
      dedupeByContent: cfg.dedupe_by_content,
      maxPendingPoints: cfg.max_pending_points,
      insertTimeoutMs: ch.insert_timeout,
      queryTimeoutMs: cfg.query_timeout,
      cluster: clusterNames(ch),
      seriesCacheRows: ch.series_cache_rows,
      ddlWaitMs: ch.ddl_wait,
    })
    return { client, engine, meta }
  } catch (e) {
    await client.close()
    throw e
  }
}
