/**
 * One table batch of a body as one RowBinary INSERT: `time`, then the batch's columns in its
 * order, each encoded as the table's column is typed (a batch's number or boolean going into a
 * column widened to text is written as its text, asText). Columns of the table the batch lacks
 * are left out of the statement, so ClickHouse fills them with NULL.
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

export function encodeBatch(batch: TableBatch, info: TableInfo): EncodedInsert {
  const w = new RowBinaryWriter()
  const cells = batch.columns.map((spec, ci) => {
    const data = batch.data[ci]
    const wide = info.byName.get(spec.name)!.type === 'VARCHAR' && data.type !== 'VARCHAR'
    return cellWriter(w, wide ? asText(data) : data)
  })
  for (let i = 0; i < batch.time.length; i++) {
    w.int64(batch.time[i])
    for (const write of cells) write(i)
  }
  return {
    columns: [chIdent('time'), ...batch.columns.map((c) => chIdent(c.name))],
    body: Buffer.from(w.bytes()),
  }
}
