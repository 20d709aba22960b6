/**
 * The names and table specs of the ClickHouse table layout (layout.ts): which clusters the
 * tables span, and what a point or metadata table is made of.
 */
export interface ClusterNames {
  /** The shards and replicas the Distributed tables span. */
  data: string
  /** The same nodes, each a shard of its own. */
  nodes: string
}

/** Replicated blocks remembered per table and shard for dropping a repeated insert. */
export const DEDUPE_BLOCKS = 1000
/** How long an ON CLUSTER statement waits for every host (ClickHouse's own default is 180 s). */
export const DDL_WAIT_MS = 10_000

/** Told of each ON CLUSTER statement taken as done before every host did it. */
export type DdlWaitListener = (statement: string, waitedMs: number) => void

export interface DataTable {
  database: string
  name: string
  /** Column definitions as SQL, `time` first. */
  columns: string
  partitionBy: string
  orderBy: string
  /**
   * On a cluster, the shard of a row: an expression of its own columns only (a retried body
   * must split the same way). Default: a hash of `time`.
   */
  shardBy?: string
  /** `ReplacingMergeTree` keeps one row per sorting key and partition once merged. */
  engine?: 'MergeTree' | 'ReplacingMergeTree'
}

export interface MetaTableSpec {
  database: string
  name: string
  columns: string
  version: string
  orderBy: string
}
