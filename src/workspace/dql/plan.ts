/**
 * The engine-neutral plan of one DQL query: what to read, filter, bucket, aggregate, group,
 * order and cut, with every option already resolved (defaults, zero-means-unset, max_point,
 * search_after). It names logical tables and columns only; a dialect (duckdb/, clickhouse/) turns it into
 * its engine's query. Whatever the engine, the answer is the rows of the plan's `outputs` per
 * `groupBy` series, in `order`, cut by `limits`; then `post` (post.ts, TypeScript, shared by
 * every engine) runs on those series.
 *
 * What a renderer implements, feature by feature:
 * - source: one table, or `union` (several tables read as one: absent columns are NULL, a
 *   column whose types differ is read as text, `constants` are literal columns per table such
 *   as `source` = the table's measurement); `latestBy`: newest row per value of a column.
 * - range, where, conditions: row filters (duckdb/where.ts shows the type rules).
 * - outputs: PlanValue trees (plan-value.ts: columns, numbers, aggregates, arithmetic, math).
 * - aggregated, bucket, groupBy: one row per (BY tags, time bucket); empty buckets are absent.
 * - rollup: before aggregating, each series (rows with equal `seriesKey` tags) is reduced per
 *   bucket to its rollup of every aggregated column; the outputs' aggregates then read those.
 * - order, paging, limits, maxRows: as before; the engine returns at most maxRows + 1 rows.
 * - post: nothing for the engine; when `post.limits` is set the planner has already lifted
 *   the row and series limits out of `limits` so that they apply after the post steps.
 *   Window-like functions (derivative, difference, moving_average, rate, cumsum) are post steps
 *   so that no engine needs window functions for them.
 */
import type { Category } from '../../shared/category.js'
import type { Expr } from './ast.js'
import type { AggFunc, PlanValue } from './plan-value.js'
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
  /** Several tables read as one (`L::*`, `re(..)`); `info` then holds their merged columns. */
  union: UnionMember[] | null
}

export interface UnionMember {
  table: string
  info: TableInfo
  /** Columns of the merged table this member fills with a literal text (`source`). */
  constants: Record<string, string>
}

/** What an output computes, and the name it answers under. */
export type PlanOutput = PlanValue & { name: string }

/** Per series and bucket, the rollup of each aggregated column before the aggregate. */
export interface Rollup {
  func: AggFunc
  param?: number
  /** The tags that tell series apart. */
  seriesKey: string[]
}

/** Series functions (transform.ts), applied per series in ascending time. */
export type SeriesFunc =
  | 'derivative'
  | 'non_negative_derivative'
  | 'difference'
  | 'non_negative_difference'
  | 'moving_average'
  | 'cumsum'
  | 'rate'
  | 'irate'
  | 'abs'
  | 'log10'
  | 'log2'

export interface Transform {
  /** The output whose values it replaces. */
  output: number
  func: SeriesFunc
  /** moving_average's window. */
  param?: number
}

/** Steps on the engine's series, in this order (post.ts). */
export interface Post {
  transforms: Transform[]
  /** An output holding lists (distinct): one row per element, time null. */
  explode: number | null
  /** Rows kept: comparisons whose `column` is an output's name. */
  having: Expr | null
  /** Series order (SORDER BY): by an output's largest value (DESC) or smallest (ASC). */
  seriesOrder: { output: number; desc: boolean }[]
  /** Row and series limits applied here instead of by the engine, or null. */
  limits: Limits | null
}

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
  rollup: Rollup | null
  groupBy: string[]
  order: PlanOrder[]
  paging: Paging
  limits: Limits
  /** Empty unless the request asked for `highlight`. */
  highlight: HighlightRule[]
  /** Rows the answer may hold; the engine returns one more to tell that it was cut. */
  maxRows: number
  post: Post
}
