/**
 * Copies what can still be read of one database into a fresh one, on a connection that has the
 * damaged file attached read-only as `old` and the new file as `new` (and `USE new`). Each
 * table is recreated from its own DDL (keys and constraints kept), then its rows are copied in
 * one statement; if that fails, row group by row group (rowid ranges of DuckDB's row group
 * size), so one damaged block costs the rows of its group only. Counting a range reads no column
 * data, so the rows lost are counted exactly even where they cannot be read.
 */
import type { DuckDBConnection } from '@duckdb/node-api'
import { ident } from './store/names.js'

export interface TableRecovery {
  table: string
  /** Rows the damaged table holds (from its row ids), or null if even that is unreadable. */
  rows: number | null
  recovered: number
  /** Rows in row groups that could not be read. */
  lost: number
  /** The first read error met, or null when every row was copied. */
  error: string | null
}

/** DuckDB's row group size: a damaged block is contained within one of these. */
const ROW_GROUP = 122_880

const num = (v: unknown) => Number(v ?? 0)

async function scalar(con: DuckDBConnection, sql: string): Promise<unknown> {
  return (await con.runAndReadAll(sql)).getRows()[0]?.[0]
}

/**
 * Creates the schemas, tables and views of `old` in `new`; returns `schema.table` names in
 * order.
 */
export async function copySchema(con: DuckDBConnection): Promise<[string, string, string][]> {
  const schemas = await con.runAndReadAll(
    "SELECT schema_name FROM duckdb_schemas() WHERE database_name = 'old' AND NOT internal ORDER BY 1",
  )
  for (const [s] of schemas.getRows() as string[][])
    await con.run(`CREATE SCHEMA IF NOT EXISTS ${ident(s)}`)
  const tables = await con.runAndReadAll(
    "SELECT schema_name, table_name, sql FROM duckdb_tables() WHERE database_name = 'old' ORDER BY 1, 2",
  )
  const out = tables.getRows() as [string, string, string][]
  // The DDL names its table schema-qualified without a database: it lands in `new` (USE new).
  for (const [, , sql] of out) await con.run(sql)
  // Views (a table in the series layout reads through one) only name tables, made just above.
  const views = await con.runAndReadAll(
    "SELECT sql FROM duckdb_views() WHERE database_name = 'old' AND NOT internal ORDER BY schema_name, view_name",
  )
  for (const [sql] of views.getRows() as string[][]) await con.run(sql)
  return out
}

async function copyGroups(
  con: DuckDBConnection,
  from: string,
  to: string,
  maxRowId: number,
  r: TableRecovery,
): Promise<void> {
  for (let lo = 0; lo <= maxRowId; lo += ROW_GROUP) {
    const range = `rowid >= ${lo} AND rowid < ${lo + ROW_GROUP}`
    try {
      const res = await con.run(`INSERT INTO ${to} SELECT * FROM ${from} WHERE ${range}`)
      r.recovered += res.rowsChanged
    } catch (e) {
      r.error ??= (e as Error).message
      r.lost += num(await scalar(con, `SELECT count(*) FROM ${from} WHERE ${range}`))
    }
  }
}

/** Copies one table's readable rows from `old` to `new`. */
export async function copyTable(
  con: DuckDBConnection,
  schema: string,
  name: string,
): Promise<TableRecovery> {
  const rel = `${ident(schema)}.${ident(name)}`
  const from = `old.${rel}`
  const to = `new.${rel}`
  const r: TableRecovery = {
    table: `${schema}.${name}`,
    rows: null,
    recovered: 0,
    lost: 0,
    error: null,
  }
  let maxRowId = -1
  try {
    const row = (await con.runAndReadAll(`SELECT count(*), max(rowid) FROM ${from}`)).getRows()[0]
    r.rows = num(row[0])
    maxRowId = row[1] === null ? -1 : num(row[1])
  } catch (e) {
    r.error = (e as Error).message
    return r
  }
  try {
    r.recovered = (await con.run(`INSERT INTO ${to} SELECT * FROM ${from}`)).rowsChanged
    return r
  } catch (e) {
    r.error = (e as Error).message
  }
  // The failed statement inserted nothing (it rolled back); copy what can be read, group by group.
  await copyGroups(con, from, to, maxRowId, r)
  return r
}
