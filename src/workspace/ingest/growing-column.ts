/**
 * One column of the fast protobuf path, filled row by row straight into growable typed arrays
 * (no boxed values kept in between) and cut to its final ColumnData (column-data.ts) at the
 * end.
 *
 * Invariants: rows are written in increasing order, at most once each; a row skipped is null
 * (a text code of -1, or a 1 in `nulls`, which exists only once a row is skipped); text codes
 * number the distinct strings in first-seen row order, as TextColumn does, so the dictionary
 * is the general path's.
 */
import type { ColumnSpec, ColumnType } from '../store/catalog.js'
import type { ColumnData } from './column-data.js'

const FIRST_CAPACITY = 256

function grown<T extends Float64Array | Uint8Array | Int32Array>(a: T, need: number): T {
  const out = new (a.constructor as new (n: number) => T)(Math.max(need, a.length * 2))
  out.set(a)
  return out
}

/** The first `n` entries: the array itself when it is exactly that long, else a copy. */
function cut<T extends Float64Array | Uint8Array | Int32Array>(a: T, n: number): T {
  return (a.length === n ? a : a.slice(0, n)) as T
}

export class GrowingColumn {
  /** The last row written, -1 before the first. */
  lastRow = -1
  /** Numbers, or booleans as 0/1 (DOUBLE and BOOLEAN columns). */
  private nums: Float64Array | Uint8Array
  private nulls: Uint8Array | null = null
  /** Text codes (VARCHAR columns). */
  private codes: Int32Array
  private readonly dict: string[] = []
  private readonly index = new Map<string, number>()
  /** The last string written and its code: a repeated value skips the dictionary lookup. */
  private lastText: string | null = null
  private lastCode = -1

  constructor(readonly spec: ColumnSpec) {
    const size = (t: ColumnType) => (spec.type === t ? FIRST_CAPACITY : 0)
    this.nums =
      spec.type === 'DOUBLE' ? new Float64Array(size('DOUBLE')) : new Uint8Array(size('BOOLEAN'))
    this.codes = new Int32Array(size('VARCHAR'))
  }

  get type(): ColumnType {
    return this.spec.type
  }

  /** Marks the rows since the last one written, up to `row` (excluded), as null. */
  private gap(row: number): void {
    if (this.spec.type === 'VARCHAR') this.codes.fill(-1, this.lastRow + 1, row)
    else {
      if (!this.nulls || this.nulls.length < this.nums.length)
        this.nulls = this.nulls
          ? grown(this.nulls, this.nums.length)
          : new Uint8Array(this.nums.length)
      this.nulls.fill(1, this.lastRow + 1, row)
    }
  }

  /** A number (DOUBLE) or 0/1 (BOOLEAN) at `row`. */
  putNumber(row: number, v: number): void {
    if (row >= this.nums.length) this.nums = grown(this.nums, row + 1)
    if (row !== this.lastRow + 1) this.gap(row)
    this.nums[row] = v
    this.lastRow = row
  }

  putText(row: number, v: string): void {
    if (row >= this.codes.length) this.codes = grown(this.codes, row + 1)
    if (row !== this.lastRow + 1) this.codes.fill(-1, this.lastRow + 1, row)
    if (v !== this.lastText) {
      let code = this.index.get(v)
      if (code === undefined) {
        code = this.dict.length
        this.dict.push(v)
        this.index.set(v, code)
      }
      this.lastText = v
      this.lastCode = code
    }
    this.codes[row] = this.lastCode
    this.lastRow = row
  }

  /** The column of a table of `n` rows. */
  finish(n: number): ColumnData {
    if (this.spec.type === 'VARCHAR') {
      if (this.codes.length < n) this.codes = grown(this.codes, n)
      this.codes.fill(-1, this.lastRow + 1, n)
      return { type: 'VARCHAR', dict: this.dict, codes: cut(this.codes, n) }
    }
    if (this.nums.length < n) this.nums = grown(this.nums, n)
    if (this.lastRow + 1 < n) this.gap(n)
    if (this.nulls && this.nulls.length < n) this.nulls = grown(this.nulls, n)
    const nulls = this.nulls && cut(this.nulls, n)
    return this.spec.type === 'DOUBLE'
      ? { type: 'DOUBLE', values: cut(this.nums as Float64Array, n), nulls }
      : { type: 'BOOLEAN', values: cut(this.nums as Uint8Array, n), nulls }
  }
}
