/**
 * Appends column batches to a table as DuckDB data chunks written directly: the time, number
 * and boolean columns cross as one buffer copy per chunk, text as one native call per non-null
 * value from its dictionary's UTF-8 bytes (encoded once per distinct string), or as one
 * constant vector when every row of the chunk has the same value (a body's host, service and
 * the like usually do), nulls as one validity bitmap per chunk. The table may have more columns than the batch (null) and wider
 * types (the values are converted to text).
 */
import duckdb from '@duckdb/node-bindings'
import {
  BIGINT,
  BOOLEAN,
  INTEGER,
  DOUBLE,
  DuckDBDataChunk,
  VARCHAR,
  type DuckDBAppender,
} from '@duckdb/node-api'
import { asText, type ColumnData } from '../ingest/column-data.js'
import type { TableBatch } from '../ingest/columns.js'
import type { Column } from './catalog.js'

/** DuckDB's vector size: one data chunk holds at most this many rows. */
const CHUNK_ROWS = 2048
const DUCK_TYPES = { DOUBLE, BOOLEAN, VARCHAR }

/** A batch column ready to copy: text columns carry their dictionary as UTF-8. */
type Source =
  | { type: 'DOUBLE' | 'BOOLEAN'; values: Float64Array | Uint8Array; nulls: Uint8Array | null }
  | { type: 'VARCHAR'; dict: string[]; bytes: Uint8Array[]; codes: Int32Array }
  | null

function source(table: Column, col: ColumnData | undefined): Source {
  if (!col) return null
  const c = table.type === 'VARCHAR' ? asText(col) : col
  if (c.type !== 'VARCHAR') return c
  const bytes = c.dict.map((s) => Buffer.from(s, 'utf8'))
  return { type: 'VARCHAR', dict: c.dict, bytes, codes: c.codes }
}

/** Sets the validity bitmap of rows [start, start + n) where `isNull(row)`. */
function setNulls(vec: duckdb.Vector, n: number, start: number, isNull: (row: number) => boolean) {
  const words = new BigUint64Array(Math.ceil(n / 64)).fill(0xffffffffffffffffn)
  let any = false
  for (let i = 0; i < n; i++)
    if (isNull(start + i)) {
      any = true
      words[i >>> 6] &= ~(1n << BigInt(i & 63))
    }
  if (!any) return
  duckdb.vector_ensure_validity_writable(vec)
  duckdb.copy_data_to_vector_validity(vec, 0, words.buffer, 0, words.byteLength)
}

/** The code every row of [start, start + n) has, if they share one that is not null; else -1. */
function sameCode(codes: Int32Array, start: number, n: number): number {
  const first = codes[start]
  for (let i = start + 1; i < start + n; i++) if (codes[i] !== first) return -1
  return first
}

function fill(vec: duckdb.Vector, src: Source, start: number, n: number): void {
  if (src === null) return setNulls(vec, n, start, () => true)
  if (src.type === 'VARCHAR') {
    const { bytes, codes } = src
    const same = sameCode(codes, start, n)
    if (same >= 0) return duckdb.vector_reference_value(vec, duckdb.create_varchar(src.dict[same]))
    for (let i = 0; i < n; i++) {
      const code = codes[start + i]
      if (code >= 0) duckdb.vector_assign_string_element_len(vec, i, bytes[code])
    }
    return setNulls(vec, n, start, (r) => codes[r] < 0)
  }
  const { values, nulls } = src
  const size = values.BYTES_PER_ELEMENT
  duckdb.copy_data_to_vector(
    vec,
    0,
    values.buffer as ArrayBuffer,
    values.byteOffset + start * size,
    n * size,
  )
  if (nulls) setNulls(vec, n, start, (r) => nulls[r] === 1)
}

/** Columns of a batch by name, with their row count (a batch or the new series of one). */
export interface ColumnSet {
  columns: { name: string }[]
  data: ColumnData[]
  rows: number
}

/**
 * Appends `cols` to a table whose physical columns are the `leading` arrays (BIGINT or INTEGER:
 * the time, a series id) followed by `table`.
 */
export function appendColumns(
  app: DuckDBAppender,
  leading: (BigInt64Array | Int32Array)[],
  table: Column[],
  cols: ColumnSet,
): void {
  const types = [
    ...leading.map((a) => (a instanceof Int32Array ? INTEGER : BIGINT)),
    ...table.map((c) => DUCK_TYPES[c.type]),
  ]
  const index = new Map(cols.columns.map((c, i) => [c.name, i]))
  const sources = table.map((c) => source(c, cols.data[index.get(c.name) ?? -1]))
  for (let start = 0; start < cols.rows; start += CHUNK_ROWS) {
    const n = Math.min(CHUNK_ROWS, cols.rows - start)
    const chunk = DuckDBDataChunk.create(types, n)
    leading.forEach((a, i) =>
      duckdb.copy_data_to_vector(
        duckdb.data_chunk_get_vector(chunk.chunk, i),
        0,
        a.buffer as ArrayBuffer,
        a.byteOffset + start * a.BYTES_PER_ELEMENT,
        n * a.BYTES_PER_ELEMENT,
      ),
    )
    sources.forEach((src, c) =>
      fill(duckdb.data_chunk_get_vector(chunk.chunk, c + leading.length), src, start, n),
    )
    app.appendDataChunk(chunk)
  }
}

export function appendBatch(app: DuckDBAppender, table: Column[], batch: TableBatch): void {
  appendColumns(app, [batch.time], table, { ...batch, rows: batch.time.length })
}
