/**
 * The newest state of each object of one object table (by its `name` column), filtered and
 * paged: what the Open API's host and process lists ask any engine for. Columns are named as
 * written (logical names); the engine maps them onto its physical ones.
 */
import type { Row } from './db.js'

export interface ObjectQuery {
  workspaceId: string
  /** The logical table, e.g. `O::HOST`; it has a `name` column. */
  table: string
  /** Columns whose value, as text, must equal the given text. */
  equals: [string, string][]
  /** A lower-cased needle, part of the text of at least one of `columns`. */
  search: { columns: string[]; needle: string } | null
  /** Only objects whose newest report is at or after this time (ns); null: all. */
  sinceNs: bigint | null
  offset: number
  limit: number
}

export interface ObjectPage {
  /** Objects matching, over all pages. */
  total: number
  /** Logical column names, `time` (ns) included. */
  columns: string[]
  rows: Row[]
}
