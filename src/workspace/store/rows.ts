/**
 * Appends column batches to a table as DuckDB data chunks: numeric columns cross to the
 * database as one buffer copy per chunk instead of one native call per value. The table may
 * have more columns than the batch (null) and wider types (the values are converted to text).
 */
import {
  BIGINT,
  BOOLEAN,
  DOUBLE,
  DuckDBDataChunk,
  VARCHAR,
  type DuckDBAppender,
  type DuckDBValue,
} from '@duckdb/node-api'
import { cell, type TableBatch } from '../ingest/columns.js'
import type { Column } from './catalog.js'

/** DuckDB's vector size: one data chunk holds at most this many rows. */
const CHUNK_ROWS = 2048
const DUCK_TYPES = { DOUBLE, BOOLEAN, VARCHAR }

/** The batch's values for each table column, converted where the table's type is wider. */
function columnValues(table: Column[], batch: TableBatch): (DuckDBValue[] | null)[] {
  const index = new Map(batch.columns.map((c, i) => [c.name, i]))
  return table.map((c) => {
    const i = index.get(c.name)
    if (i === undefined) return null
    const values = batch.values[i]
    return batch.columns[i].type === c.type ? values : values.map((v) => cell(c.type, v))
  })
}

export function appendBatch(app: DuckDBAppender, table: Column[], batch: TableBatch): void {
  const types = [BIGINT, ...table.map((c) => DUCK_TYPES[c.type])]
  const sources = columnValues(table, batch)
  const rows = batch.time.length
  for (let start = 0; start < rows; start += CHUNK_ROWS) {
    const n = Math.min(CHUNK_ROWS, rows - start)
    const chunk = DuckDBDataChunk.create(types, n)
    chunk.setColumnValues(0, Array.from(batch.time.subarray(start, start + n)))
    sources.forEach((values, c) =>
      chunk.setColumnValues(
        c + 1,
        values ? values.slice(start, start + n) : new Array(n).fill(null),
      ),
    )
    app.appendDataChunk(chunk)
  }
}
