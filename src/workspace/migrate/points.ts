/**
 * Copies one table's points from one engine to another through the StorageEngine doors, in
 * bounded batches. Invariants:
 * - A batch is every row with `after < time <= upper`, where `upper` is the time of the
 *   `batchRows`-th row after `after`: batches never split the rows of one instant, so they are
 *   the same on every run over the same source (a batch exceeds `batchRows` only by the rows
 *   sharing its last instant).
 * - A batch goes to the target as one body under the package id `migrate:<table>:<after>:<upper>`
 *   (ids of different workspaces never meet: the dedupe is per workspace). A re-run sends the
 *   same ids and the target answers every batch it stored before `duplicate`: migrating twice
 *   stores each point once (migrate-open.ts makes the window unbounded for this).
 */
import type { Category } from '../../shared/category.js'
import type { ColumnType, TableInfo } from '../store/catalog.js'
import type { StorageEngine } from '../store/engine.js'
import { categoryOf } from '../store/retention.js'
import type { TableBatch } from '../ingest/columns.js'
import { encodeCells, type Cell } from '../ingest/column-data.js'

export interface TableCopy {
  workspace: string
  table: string
  /** Rows read from the source. */
  rows: number
  /** Rows the target stored now (the rest it had from an earlier run). */
  stored: number
  batches: number
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`

function cellOf(type: ColumnType, v: unknown): Cell {
  if (v === null || v === undefined) return null
  if (type === 'DOUBLE') return Number(v)
  if (type === 'BOOLEAN') return Boolean(v)
  return String(v)
}

/** The source's rows (time first, then the table's columns) as one decoded batch. */
function toBatch(table: string, info: TableInfo, rows: unknown[][]): TableBatch {
  const time = BigInt64Array.from(rows, (r) => BigInt(r[0] as bigint))
  const columns = info.columns.map(({ name, kind, type }) => ({ name, kind, type }))
  const data = info.columns.map((c, i) =>
    encodeCells(
      c.type,
      rows.map((r) => cellOf(c.type, r[i + 1])),
    ),
  )
  return { table, columns, time, data }
}

/** The time of the `limit`-th row after `after`, or null when none is left. */
async function upperBound(
  source: StorageEngine,
  ref: string,
  after: bigint | null,
  limit: number,
): Promise<bigint | null> {
  const where = after === null ? '' : 'WHERE time > $1'
  const r = await source.query(
    `SELECT max(time) FROM (SELECT time FROM ${ref} ${where} ORDER BY time LIMIT ${limit})`,
    after === null ? [] : [after],
  )
  const v = r.rows[0]?.[0]
  return v === null || v === undefined ? null : BigInt(v as bigint)
}

export async function copyTable(
  source: StorageEngine,
  target: StorageEngine,
  ws: string,
  table: string,
  batchRows: number,
): Promise<TableCopy> {
  const out: TableCopy = { workspace: ws, table, rows: 0, stored: 0, batches: 0 }
  const info = source.catalog.table(ws, table)
  const ref = source.tableRef(ws, table)
  const category = categoryOf(table) as Category | null
  if (!info || !ref || !category) return out
  const cols = [quote('time'), ...info.columns.map((c) => quote(c.phys))].join(', ')
  let after: bigint | null = null
  for (;;) {
    const upper = await upperBound(source, ref, after, batchRows)
    if (upper === null) return out
    const lower = after === null ? '' : 'time > $2 AND'
    const params = after === null ? [upper] : [upper, after]
    const read = await source.query(
      `SELECT ${cols} FROM ${ref} WHERE ${lower} time <= $1 ORDER BY time`,
      params,
    )
    const batch = toBatch(table, info, read.rows)
    const r = await target.ingest({
      workspaceId: ws,
      category,
      tables: [batch],
      points: read.rows.length,
      pkgId: `migrate:${table}:${after ?? 'start'}:${upper}`,
    })
    out.rows += read.rows.length
    out.stored += r.stored
    out.batches++
    after = upper
  }
}
