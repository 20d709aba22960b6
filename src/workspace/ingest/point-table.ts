/**
 * One table's rows as the fast protobuf path fills them: a time column and one growing column
 * per key (growing-column.ts), turned into a TableBatch at the end. `add` refuses (false) what
 * the general path would treat differently: a type that changes or a key set twice in a row.
 *
 * Invariants: columns are created in the general path's order (a point's tags, then its
 * fields, each table's columns in first-seen order). Points of one table mostly repeat the
 * previous point's keys in the same order (its "shape"), so the key-to-column resolution of
 * the previous point is kept and reused when every key and tag flag is the same, instead of a
 * name lookup per key.
 */
import type { ColumnType } from '../store/catalog.js'
import { columnFor } from '../store/names.js'
import { GrowingColumn } from './growing-column.js'
import type { TableBatch } from './columns.js'
import { TimeColumn } from './time-column.js'

/** One key-value of a point as read from the body (objects reused from point to point). */
export interface Kv {
  key: string
  tag: boolean
  type: ColumnType
  /** The value of a DOUBLE, or 0/1 for a BOOLEAN. */
  num: number
  /** The value of a VARCHAR. */
  str: string
}

export class PointTable {
  readonly times = new TimeColumn()
  private readonly columns: GrowingColumn[] = []
  private readonly byName = new Map<string, GrowingColumn>()
  /** The previous point's shape: its keys, tag flags and their columns, by position. */
  private readonly shapeKeys: string[] = []
  private readonly shapeTags: boolean[] = []
  private readonly shapeCols: GrowingColumn[] = []
  private shapeLen = 0

  constructor(private readonly name: string) {}

  private column(kv: Kv): GrowingColumn {
    const name = columnFor(kv.key)
    let c = this.byName.get(name)
    if (!c) {
      c = new GrowingColumn({ name, kind: kv.tag ? 'tag' : 'field', type: kv.type })
      this.byName.set(name, c)
      this.columns.push(c)
    }
    return c
  }

  /** Resolves the columns of a new shape, creating the missing ones tags first. */
  private reshape(kvs: Kv[], n: number): void {
    for (let pass = 0; pass < 2; pass++)
      for (let i = 0; i < n; i++) {
        const kv = kvs[i]
        if (kv.tag !== (pass === 0)) continue
        this.shapeCols[i] = this.column(kv)
        this.shapeKeys[i] = kv.key
        this.shapeTags[i] = kv.tag
      }
    this.shapeLen = n
  }

  private sameShape(kvs: Kv[], n: number): boolean {
    if (n !== this.shapeLen) return false
    for (let i = 0; i < n; i++)
      if (kvs[i].key !== this.shapeKeys[i] || kvs[i].tag !== this.shapeTags[i]) return false
    return true
  }

  /** Writes a point's key-values at `row` (the row of its time, just pushed). */
  add(kvs: Kv[], n: number, row: number): boolean {
    if (!this.sameShape(kvs, n)) this.reshape(kvs, n)
    const cols = this.shapeCols
    for (let i = 0; i < n; i++) {
      const kv = kvs[i]
      const c = cols[i]
      if (c.type !== kv.type || c.lastRow === row) return false
      if (kv.type === 'VARCHAR') c.putText(row, kv.str)
      else c.putNumber(row, kv.num)
    }
    return true
  }

  finish(): TableBatch {
    const n = this.times.length
    return {
      table: this.name,
      columns: this.columns.map((c) => c.spec),
      time: this.times.finish(),
      data: this.columns.map((c) => c.finish(n)),
    }
  }
}
