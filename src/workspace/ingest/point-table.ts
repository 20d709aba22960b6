/**
 * One table's rows as the fast protobuf path fills them: a growable time array and one
 * growable column per key, turned into a TableBatch at the end. `set` refuses (false) what the
 * general path would treat differently: a type that changes or a key set twice in one row.
 */
import type { ColumnKind, ColumnSpec, ColumnType } from '../store/catalog.js'
import { TextColumn, type ColumnData } from './column-data.js'
import type { TableBatch } from './columns.js'

interface Growing {
  spec: ColumnSpec
  lastRow: number
  rows: number[]
  values: (number | boolean | string)[]
}

export class PointTable {
  private readonly times: bigint[] = []
  private readonly columns: Growing[] = []
  private readonly byName = new Map<string, Growing>()

  constructor(private readonly name: string) {}

  addRow(time: bigint): number {
    return this.times.push(time) - 1
  }

  set(
    row: number,
    name: string,
    kind: ColumnKind,
    type: ColumnType,
    value: number | boolean | string,
  ): boolean {
    let c = this.byName.get(name)
    if (!c) {
      c = { spec: { name, kind, type }, lastRow: -1, rows: [], values: [] }
      this.byName.set(name, c)
      this.columns.push(c)
    } else if (c.spec.type !== type || c.lastRow === row) return false
    c.lastRow = row
    c.rows.push(row)
    c.values.push(value)
    return true
  }

  private data(c: Growing, n: number): ColumnData {
    const { rows, values } = c
    if (c.spec.type === 'VARCHAR') {
      const t = new TextColumn(n)
      for (let i = 0; i < rows.length; i++) t.set(rows[i], values[i] as string)
      return t.done()
    }
    const out = c.spec.type === 'DOUBLE' ? new Float64Array(n) : new Uint8Array(n)
    const nulls = rows.length < n ? new Uint8Array(n).fill(1) : null
    for (let i = 0; i < rows.length; i++) {
      out[rows[i]] = values[i] as number
      if (nulls) nulls[rows[i]] = 0
    }
    return c.spec.type === 'DOUBLE'
      ? { type: 'DOUBLE', values: out as Float64Array, nulls }
      : { type: 'BOOLEAN', values: out as Uint8Array, nulls }
  }

  finish(): TableBatch {
    const n = this.times.length
    return {
      table: this.name,
      columns: this.columns.map((c) => c.spec),
      time: BigInt64Array.from(this.times),
      data: this.columns.map((c) => this.data(c, n)),
    }
  }
}
