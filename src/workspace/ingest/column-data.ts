/**
 * The compact form of one column of a batch, built in the decode workers and transferred (not
 * copied) to the service thread: numbers in a Float64Array, booleans in a Uint8Array, text as
 * a dictionary of distinct strings plus one code per row, so a tag repeated on every point is
 * one string, not one per point. The writer copies these straight into DuckDB vectors.
 *
 * Invariants: every array has one entry per row; `nulls[i] === 1` marks a null number or
 * boolean (`nulls` is null when there is none); a text code of -1 is null.
 */
import type { ColumnType } from '../store/catalog.js'

export type ColumnData =
  | { type: 'DOUBLE'; values: Float64Array; nulls: Uint8Array | null }
  | { type: 'BOOLEAN'; values: Uint8Array; nulls: Uint8Array | null }
  | { type: 'VARCHAR'; dict: string[]; codes: Int32Array }

export type Cell = string | number | boolean | null

/** Builds a text column one row at a time, interning repeated strings. */
export class TextColumn {
  readonly dict: string[] = []
  private readonly index = new Map<string, number>()
  readonly codes: Int32Array

  constructor(rows: number) {
    this.codes = new Int32Array(rows).fill(-1)
  }

  set(row: number, v: string): void {
    let code = this.index.get(v)
    if (code === undefined) {
      code = this.dict.length
      this.dict.push(v)
      this.index.set(v, code)
    }
    this.codes[row] = code
  }

  done(): ColumnData {
    return { type: 'VARCHAR', dict: this.dict, codes: this.codes }
  }
}

/** A column from one cell per row (already converted to `type`; see columns.ts `cell`). */
export function encodeCells(type: ColumnType, cells: Cell[]): ColumnData {
  const n = cells.length
  if (type === 'VARCHAR') {
    const t = new TextColumn(n)
    for (let i = 0; i < n; i++) if (cells[i] !== null) t.set(i, cells[i] as string)
    return t.done()
  }
  const values = type === 'DOUBLE' ? new Float64Array(n) : new Uint8Array(n)
  let nulls: Uint8Array | null = null
  for (let i = 0; i < n; i++) {
    const v = cells[i]
    if (v === null) (nulls ??= new Uint8Array(n))[i] = 1
    else values[i] = Number(v)
  }
  return type === 'DOUBLE'
    ? { type, values: values as Float64Array, nulls }
    : { type: 'BOOLEAN', values: values as Uint8Array, nulls }
}

/** The text form of a number or boolean column, for a table column widened to VARCHAR. */
export function asText(col: ColumnData): Extract<ColumnData, { type: 'VARCHAR' }> {
  if (col.type === 'VARCHAR') return col
  const n = col.values.length
  const t = new TextColumn(n)
  for (let i = 0; i < n; i++)
    if (!col.nulls?.[i])
      t.set(i, col.type === 'DOUBLE' ? String(col.values[i]) : String(col.values[i] === 1))
  return t.done() as Extract<ColumnData, { type: 'VARCHAR' }>
}

/** The buffers of a column, to transfer instead of copying. */
export function buffersOf(col: ColumnData): ArrayBuffer[] {
  if (col.type === 'VARCHAR') return [col.codes.buffer as ArrayBuffer]
  return col.nulls
    ? [col.values.buffer as ArrayBuffer, col.nulls.buffer as ArrayBuffer]
    : [col.values.buffer as ArrayBuffer]
}
