/**
 * The engine-neutral plan of one DQL query: what to read, filter, bucket, aggregate, group,
 * order and cut, with every option already resolved (defaults, zero-means-unset, max_point,
 * search_after). It names logical tables and columns only; a dialect (duckdb/) turns it into
 * its engine's query. Whatever the engine, the answer is the rows of the plan's `outputs` per
 * `groupBy` series, in `order`, cut by `limits`.
 */
import type { Category } from '../../shared/category.js'
import type { AggFunc, Expr } from './ast.js'
import type { Cursor } from './search-after.js'
import type { Range } from './time.js'
import type { TableInfo } from '../store/catalog.js'

export interface PlanSource {
  workspaceId: string
  category: Category
  /** The logical table (`M::cpu`). */
  table: string
  /** Its columns as the catalog knows them (types decide how filters compare). */
  info: TableInfo
  /** Objects: read only the newest row of each value of this column (`name`), or null. */
  latestBy: string | null
}

export type PlanOutput =
  | { name: string; kind: 'column'; column: string }
  /** `column` is `*` only for count(*). */
  | { name: string; kind: 'aggregate'; func: AggFunc; column: string }

/** A sort key: the row (or bucket) time, an output by index, or a group-by tag by index. */
export type OrderKey =
  { kind: 'time' } | { kind: 'output'; index: number } | { kind: 'group'; index: number }

export interface PlanOrder {
  key: OrderKey
  desc: boolean
}

export interface Limits {
  /** Rows per series; null: all. */
  limit: number | null
  offset: number
  /** Series; null: all. */
  slimit: number | null
  soffset: number
}

/** Time buckets of an aggregated query: `step` wide, from `originMs` (null: the epoch). */
export interface Bucket {
  stepMs: number
  originMs: number | null
}

export interface Paging {
  /** Rows after this search_after position (in the query's order), or null. */
  cursor: Cursor | null
  /** Whether the paging order is descending time. */
  desc: boolean
  /** Rows carry a unique row id that breaks ties after the order (lossless paging). */
  tiebreak: boolean
}

/** An output whose values are shown with a pattern filter's matches marked (highlight.ts). */
export interface HighlightRule {
  /** Index in `outputs`, and its name in the answer. */
  output: number
  name: string
  column: string
  re: string
  caseless: boolean
}

export interface QueryPlan {
  source: PlanSource
  range: Range
  /** The statement's WHERE and the request's `conditions`, ANDed; null: none. */
  where: Expr | null
  conditions: Expr | null
  outputs: PlanOutput[]
  /** Outputs are aggregates: one row per bucket (or per series without a bucket). */
  aggregated: boolean
  bucket: Bucket | null
  groupBy: string[]
  order: PlanOrder[]
  paging: Paging
  limits: Limits
  /** Empty unless the request asked for `highlight`. */
  highlight: HighlightRule[]
  /** Rows the answer may hold; the engine returns one more to tell that it was cut. */
  maxRows: number
}
