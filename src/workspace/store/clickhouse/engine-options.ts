/** The ClickHouse storage engine's options (engine.ts) and their defaults. */
import type { ClusterNames } from './layout-types.js'

export interface ClickHouseEngineOptions {
  /** Databases are `<prefix>_meta` and `<prefix>_w_<hex>` per workspace. */
  prefix: string
  dedupeWindowMs: number
  /** Bodies re-sent under a new id count as duplicates by their content (dedupe.ts). */
  dedupeByContent: boolean
  maxPendingPoints: number
  insertTimeoutMs: number
  queryTimeoutMs: number
  /** Replicated tables under Distributed ones on these clusters (layout.ts); none: one node. */
  cluster?: ClusterNames | null
  /** Series rows remembered as written, to skip writing them again (series-insert.ts). */
  seriesCacheRows?: number
  /** How long an ON CLUSTER statement waits for every node (layout.ts). */
  ddlWaitMs?: number
}

/** The default of `seriesCacheRows`: a series row per day is about 100 bytes here. */
export const SERIES_CACHE_ROWS = 200_000
