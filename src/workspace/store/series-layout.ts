/**
 * The series layout of a point table: tags cross into the database once per series, not once
 * per point. A table `M::cpu` in this layout is two tables and a view:
 * - `<phys>:series`: `_sid` and one VARCHAR column per tag key, one row per distinct
 *   tag set (series.ts assigns the ids, INTEGER);
 * - `<phys>:points`: `time`, `_sid` and one column per field key, one row per point;
 * - the view `<phys>` joins them back into the flat shape every reader expects (`time`, then
 *   the columns in catalog order, then the points' `rowid` as `rowid`, the tiebreak of paging),
 *   recreated after every column change, so DQL and the Open API read it as a flat table.
 *
 * A column lives where its kind was when it was created: later values of a key go to that
 * column whatever their own kind, so routing never depends on the body. `_sid` and `rowid`
 * are reserved physical column names in this layout (a key named so is stored as `_sid~2`).
 */
import type { DuckDBConnection } from '@duckdb/node-api'
import type { Column, SeriesParts } from './columns.js'
import { ident, TIME_COLUMN } from './names.js'

export const SID_COLUMN = '_sid'
export const RESERVED_COLUMNS = [SID_COLUMN, 'rowid']

export type { SeriesParts } from './columns.js'

/** Creates the two tables of a new table in the series layout. */
export async function createParts(
  con: DuckDBConnection,
  schema: string,
  parts: SeriesParts,
): Promise<void> {
  const s = `${schema}.${ident(parts.series)}`
  const p = `${schema}.${ident(parts.points)}`
  await con.run(`CREATE TABLE ${s} (${ident(SID_COLUMN)} INTEGER NOT NULL)`)
  await con.run(
    `CREATE TABLE ${p} (${ident(TIME_COLUMN)} BIGINT NOT NULL, ${ident(SID_COLUMN)} INTEGER NOT NULL)`,
  )
}

/** The physical table holding a column of this kind. */
export function partOf(parts: SeriesParts, c: Pick<Column, 'kind'>): string {
  return c.kind === 'tag' ? parts.series : parts.points
}

/** (Re)creates the view over the parts with the columns in catalog order. */
export async function createView(
  con: DuckDBConnection,
  schema: string,
  phys: string,
  parts: SeriesParts,
  columns: Column[],
): Promise<void> {
  const cols = columns.map((c) => `${c.kind === 'tag' ? 's' : 'p'}.${ident(c.phys)}`)
  const select = [`p.${ident(TIME_COLUMN)}`, ...cols, 'p.rowid AS rowid'].join(', ')
  const sid = ident(SID_COLUMN)
  await con.run(
    `CREATE OR REPLACE VIEW ${schema}.${ident(phys)} AS SELECT ${select} FROM ${schema}.${ident(parts.points)} p JOIN ${schema}.${ident(parts.series)} s ON p.${sid} = s.${sid}`,
  )
}
