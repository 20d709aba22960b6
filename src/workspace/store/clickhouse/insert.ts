/**
 * One table batch of a body as one RowBinary INSERT: `time`, then the batch's columns in its
 * order, each encoded as the table's column is typed (a batch's number or boolean going into a
 * column widened to text is written as its text, asText). Columns of the table the batch lacks
 * are left out of the statement, so ClickHouse fills them with NULL. With `sids` (the points of
 * the series layout) each row's series id follows its time, and `columns` are those of the batch
 * to write (default: all).
 */
import type { TableInfo } from '../catalog.js'
import { asText, type ColumnData } from '../../ingest/column-data.js'
import type { TableBatch } from '../../ingest/columns.js'
import { encodeNullableString, RowBinaryWriter } from './rowbinary.js'
import { chIdent } from './sql.js'

export interface EncodedInsert {
  columns: string[]
  body: Buffer
}

function cellWriter(w: RowBinaryWriter, col: ColumnData): (i: number) => void {
  if (col.type === 'VARCHAR') {
    // Each distinct text is encoded once per batch, then copied per row: a tag repeats its
    // few values over thousands of rows.
    const { codes } = col
    const encoded = col.dict.map(encodeNullableString)
    return (i) => (codes[i] < 0 ? w.uint8(1) : w.raw(encoded[codes[i]]))
  }
  const { values, nulls } = col
  const write =
    col.type === 'DOUBLE' ? (i: number) => w.float64(values[i]) : (i: number) => w.uint8(values[i])
  return (i) => (nulls?.[i] ? w.uint8(1) : (w.uint8(0), write(i)))
}

export function encodeBatch(
  batch: TableBatch,
  info: TableInfo,
  sids?: { ids: BigUint64Array; column: string; columns: number[] },
): EncodedInsert {
  const w = new RowBinaryWriter()
  const which = sids?.columns ?? batch.columns.map((_, ci) => ci)
  const cells = which.map((ci) => {
    const data = batch.data[ci]
    const wide =
      info.byName.get(batch.columns[ci].name)!.type === 'VARCHAR' && data.type !== 'VARCHAR'
    return cellWriter(w, wide ? asText(data) : data)
  })
  for (let i = 0; i < batch.time.length; i++) {
    w.int64(batch.time[i])
    if (sids) w.uint64(sids.ids[i])
    for (const write of cells) write(i)
  }
  const names = which.map((ci) => chIdent(info.byName.get(batch.columns[ci].name)!.phys))
  const head = sids ? [chIdent('time'), chIdent(sids.column)] : [chIdent('time')]
  return { columns: [...head, ...names], body: Buffer.from(w.bytes()) }
}
