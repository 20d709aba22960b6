/**
 * The series layout of a metric table on ClickHouse (series-id.ts computes the ids):
 * - points: `<db>.<table>` (the logical name, as a flat table): `time`, `_sid` UInt64 and one
 *   column per field key, ordered by (`_sid`, `time`);
 * - series: `<db>_series.<table>`: `_sid`, `_day` (a day the series has points on) and one
 *   text column per tag key, a ReplacingMergeTree over (`_sid`) per day partition, so any
 *   instance may write a series row any number of times: rows of one id hold one tag set.
 * Both are partitioned by day and, on a cluster, sharded by `_sid`, so a series' points and
 * its rows live on one shard. A point's day always has its series row (written before the
 * points), so retention drops the same days of both and the join keeps every point.
 *
 * A key is a tag or a field by its kind when its column was made, as in DuckDB: later values
 * of the key go to that column. Keys that would take `_sid` or `_day` get a `~` appended
 * (`_sid` -> `_sid~`, `_sid~` -> `_sid~~`), so no two keys share a physical name.
 */
import type { Column, TableInfo } from '../catalog.js'
import { TIME_COLUMN } from '../names.js'
import { chIdent } from './sql.js'

export const SID = '_sid'
export const DAY = '_day'

export const SERIES_DB_SUFFIX = '_series'

/** The physical column of a key in a series-layout table. */
export function seriesPhys(name: string): string {
  return /^_(sid|day)~*$/.test(name) ? `${name}~` : name
}

export const tagColumns = (info: TableInfo) => info.columns.filter((c) => c.kind === 'tag')
export const fieldColumns = (info: TableInfo) => info.columns.filter((c) => c.kind !== 'tag')

/** Filters pushed into the two sides of the join (the renderer's; none: every row). */
export interface SeriesFilter {
  /** Conditions on `time` for the points, on `_day` for the series rows. */
  points?: string
  series?: string
  /** A condition on tag columns: only points of series matching it are read. */
  tags?: string
}

/**
 * The flat shape every reader expects (`time`, then the columns in catalog order) as a
 * subquery joining the points to their series. `ANY` join: the rows of one id are copies of
 * one tag set, so any one of them will do and none multiplies a point.
 */
export function seriesJoinSql(info: TableInfo, f: SeriesFilter = {}): string {
  const { points, series } = info.parts!
  const id = chIdent(SID)
  const cols = (cs: Column[]) => cs.map((c) => chIdent(c.phys))
  const where = (parts: (string | undefined)[]) => {
    const conds = parts.filter(Boolean)
    return conds.length ? ` WHERE ${conds.join(' AND ')}` : ''
  }
  const inSeries = f.tags && `${id} IN (SELECT ${id} FROM ${series} WHERE ${f.tags})`
  const pCols = [chIdent(TIME_COLUMN), id, ...cols(fieldColumns(info))]
  const p = `SELECT ${pCols.join(', ')} FROM ${points}${where([f.points, inSeries])}`
  const sCols = [id, ...cols(tagColumns(info))]
  const s = `SELECT ${sCols.join(', ')} FROM ${series}${where([f.series, f.tags])}`
  const out = [chIdent(TIME_COLUMN), ...cols(info.columns)].join(', ')
  return `(SELECT ${out} FROM (${p}) ANY INNER JOIN (${s}) USING ${id})`
}
