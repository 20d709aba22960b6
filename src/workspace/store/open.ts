/**
 * Opens the workspace's storage as `[workspace] engine` says: the points engine and the
 * metadata store, the only two doors the rest of the workspace uses. With DuckDB both live in
 * one file under the workspace directory and share its connections; with ClickHouse both use
 * one client, and any number of processes may open them at once.
 */
import type { WorkspaceClickHouseConfig } from '../../config/schema-workspace-clickhouse.js'
import type { WorkspaceConfig } from '../../config/schema.js'
import { FerryError } from '../../errors.js'
import { openClickHouse } from './clickhouse/open.js'
import type { DdlWaitListener } from './clickhouse/layout-types.js'
import type { ResidualListener } from './clickhouse/residual.js'
import type { Category } from '../../shared/category.js'
import { Db, type DamageListener } from './db.js'
import { DuckDbEngine } from './duckdb-engine.js'
import { DuckDbMetadata } from './duckdb-metadata.js'
import type { StorageEngine } from './engine.js'
import type { MetadataStore } from './metadata.js'

export interface WorkspaceStores {
  engine: StorageEngine
  meta: MetadataStore
  /** Tells `listener` each time a call fails on damaged storage. */
  onDamage(listener: DamageListener): void
  /** Why the storage service answers nothing (every call then fails at once), or null. */
  down(): string | null
  /** Tells `listener` when the service stops answering (the reason) and answers again (null). */
  onHealth(listener: (down: string | null) => void): void
  /** Tells `listener` of each body a re-send may store twice (clickhouse/residual.ts). */
  onResidual(listener: ResidualListener): void
  /** Tells `listener` of each table or column not made on every node in time (clickhouse/layout.ts). */
  onDdlUnfinished(listener: DdlWaitListener): void
  /** Lets queued writes commit, then closes both. */
  close(): Promise<void>
}

/** The ClickHouse settings, required when the engine is ClickHouse. */
function clickhouseOf(cfg: WorkspaceConfig, ch?: WorkspaceClickHouseConfig) {
  if (!ch)
    throw new FerryError('configInvalid', 'engine = "clickhouse" needs [workspace.clickhouse]')
  return ch
}

/** The DuckDB engine of the workspace directory `dir`, as `[workspace]` configures it. */
export function openDuckDbEngine(cfg: WorkspaceConfig, dir: string): Promise<DuckDbEngine> {
  return DuckDbEngine.open({
    dir,
    memoryLimit: cfg.memory_limit,
    threads: cfg.threads,
    maxPendingPoints: cfg.max_pending_points,
    commitMaxPoints: cfg.commit_max_points,
    dedupeWindowMs: cfg.dedupe_window,
    dedupeByContent: cfg.dedupe_by_content,
    seriesCategories: cfg.series_categories as Category[],
  })
}

export async function openStores(
  cfg: WorkspaceConfig,
  dir: string,
  ch?: WorkspaceClickHouseConfig,
): Promise<WorkspaceStores> {
  if (cfg.engine === 'clickhouse') {
    const { client, engine, meta } = await openClickHouse(cfg, clickhouseOf(cfg, ch))
    return {
      engine,
      meta,
      // ClickHouse reports its own damage in its own logs; nothing is told here.
      onDamage: () => undefined,
      down: () => client.health.down,
      onHealth: (listener) => client.health.onChange(listener),
      onResidual: (listener) => engine.onResidual(listener),
      onDdlUnfinished: (listener) => engine.onDdlUnfinished(listener),
      close: async () => {
        await engine.close()
        await client.close()
      },
    }
  }
  const engine = await openDuckDbEngine(cfg, dir)
  return {
    engine,
    meta: new DuckDbMetadata(engine.db, cfg.replay_max_bytes),
    onDamage: (listener) => engine.onDamage(listener),
    // An embedded file has no service to lose; its damage is reported apart (onDamage).
    down: () => null,
    onHealth: () => undefined,
    // A body and its package id commit in one transaction: nothing is left open.
    onResidual: () => undefined,
    onDdlUnfinished: () => undefined,
    close: () => engine.close(),
  }
}

export interface MetadataHandle {
  meta: MetadataStore
  close(): Promise<void>
}

/**
 * The metadata alone, for `ferry workspace ...` while no service runs; throws
 * `databaseLocked` when a service holds the file (the caller then goes through it).
 */
export async function openMetadata(
  cfg: WorkspaceConfig,
  dir: string,
  ch?: WorkspaceClickHouseConfig,
): Promise<MetadataHandle> {
  if (cfg.engine === 'clickhouse') {
    const { client, meta } = await openClickHouse(cfg, clickhouseOf(cfg, ch))
    return { meta, close: () => client.close() }
  }
  const db = await Db.open({ dir, memoryLimit: 256 * 1024 * 1024, threads: 1 })
  return { meta: new DuckDbMetadata(db, cfg.replay_max_bytes), close: () => db.close() }
}
