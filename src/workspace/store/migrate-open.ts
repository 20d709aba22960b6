/**
 * Opens both ends of `ferry workspace migrate --to clickhouse`: the DuckDB workspace directory
 * as the source (its engine, for the points) and the configured ClickHouse as the target (its
 * engine and metadata tables). Points cross through the two StorageEngine doors; metadata is
 * copied table by table with its ids kept (clickhouse/import-meta.ts), which the MetadataStore
 * door cannot do (it makes new ids).
 *
 * The target engine's dedupe window is unbounded for the copy: a re-run sends the same batches
 * under the same package ids (migrate/points.ts), and every one stored before, however long
 * ago, is answered duplicate instead of being stored twice.
 */
import type { WorkspaceClickHouseConfig } from '../../config/schema-workspace-clickhouse.js'
import type { WorkspaceConfig } from '../../config/schema.js'
import { importDuckDbMeta } from './clickhouse/import-meta.js'
import { MetaTables } from './clickhouse/meta-tables.js'
import { openClickHouse } from './clickhouse/open.js'
import type { ResidualListener } from './clickhouse/residual.js'
import { openDuckDbEngine } from './open.js'
import type { StorageEngine } from './engine.js'

/** A dedupe window longer than any workspace's life: 100 years. */
const FOREVER_MS = 100 * 365 * 86_400_000

export interface MigrationStores {
  source: StorageEngine
  target: StorageEngine
  /** The source's workspace ids. */
  workspaces(): Promise<string[]>
  /** Copies every metadata table, telling `progress` each table's row count. */
  copyMetadata(batchRows: number, progress: (table: string, rows: number) => void): Promise<void>
  /** Told of each batch a re-run may store twice (a crash between its rows and its id). */
  onResidual(listener: ResidualListener): void
  close(): Promise<void>
}

export async function openMigration(
  cfg: WorkspaceConfig,
  dir: string,
  ch: WorkspaceClickHouseConfig,
): Promise<MigrationStores> {
  const source = await openDuckDbEngine(cfg, dir)
  let target: Awaited<ReturnType<typeof openClickHouse>>
  try {
    target = await openClickHouse({ ...cfg, dedupe_window: FOREVER_MS }, ch)
  } catch (e) {
    await source.close()
    throw e
  }
  const metaTables = new MetaTables(
    target.client,
    `${ch.database}_meta`,
    cfg.query_timeout,
    target.engine.catalog.layout,
  )
  return {
    source,
    target: target.engine,
    workspaces: async () =>
      (await source.db.query('SELECT id FROM meta.workspaces ORDER BY id')).rows.map((r) =>
        String(r[0]),
      ),
    copyMetadata: (batchRows, progress) =>
      importDuckDbMeta(source.db, metaTables, batchRows, progress),
    onResidual: (listener) => target.engine.onResidual(listener),
    close: async () => {
      await target.engine.close()
      await target.client.close()
      await source.close()
    },
  }
}
