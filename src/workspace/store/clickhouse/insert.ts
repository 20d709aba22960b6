/**
 * One table batch of a body as one INSERT in the Native format (native.ts): `time`, then the
 * batch's columns in its order, each typed as the table's column is (a batch's number or
 * boolean going into a column widened to text is written as its text, asText). Columns of the
 * table the batch lacks are left out of the statement, so ClickHouse fills them with NULL.
 * With `sids` (the points of the series layout) each row's series id follows its time, and
 * `columns` are those of the batch to write (default: all). The same batch always gives the
 * same block (rows and columns in body order): a cluster's replicas drop a retried body's
 * block by its content.
 */
import type { TableInfo } from '../catalog.js'
import { asText, type ColumnData } from '../../ingest/column-data.js'
import type { TableBatch } from '../../ingest/columns.js'
import { encodeNativeBlock, type NativeColumn } from './native.js'
import { chIdent } from './sql.js'

export interface EncodedInsert {
  columns: string[]
  body: Buffer
  format: 'RowBinary' | 'Native'
}

function nativeColumn(name: string, col: ColumnData): NativeColumn {
  if (col.type === 'VARCHAR')
    return { name, type: 'Nullable(String)', dict: col.dict, codes: col.codes }
  if (col.type === 'DOUBLE')
    return { name, type: 'Nullable(Float64)', values: col.values, nulls: col.nulls }
  return { name, type: 'Nullable(UInt8)', values: col.values, nulls: col.nulls }
}

export function encodeBatch(
  batch: TableBatch,
  info: TableInfo,
  sids?: { ids: BigUint64Array; column: string; columns: number[] },
): EncodedInsert {
  const which = sids?.columns ?? batch.columns.map((_, ci) => ci)
  const columns = which.map((ci) => {
    const data = batch.data[ci]
    const col = info.byName.get(batch.columns[ci].name)!
    const wide = col.type === 'VARCHAR' && data.type !== 'VARCHAR'
    return nativeColumn(col.phys, wide ? asText(data) : data)
  })
  const head: NativeColumn[] = [{ name: 'time', type: 'Int64', values: batch.time }]
  if (sids) head.push({ name: sids.column, type: 'UInt64', values: sids.ids })
  const all = [...head, ...columns]
  return {
    columns: all.map((c) => chIdent(c.name)),
    body: encodeNativeBlock(batch.time.length, all),
    format: 'Native',
  }
}
