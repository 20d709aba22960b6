/**
 * Turns decoded points into column batches, one per table (category + measurement): the
 * columns the batch needs (tag or field, with a type) and one compact column per key
 * (column-data.ts). Pure JavaScript with no database types, so it runs in the decode workers;
 * the service thread only copies the arrays into the database.
 *
 * Invariant: every column has one entry per row; a point without the key has null.
 */
import type { Category } from '../../shared/category.js'
import { Kind, type Field, type Point } from '../../shared/point.js'
import type { ColumnSpec, ColumnType } from '../store/catalog.js'
import { columnFor, tableName } from '../store/names.js'
import { buffersOf, encodeCells, type Cell, type ColumnData } from './column-data.js'

export type { Cell } from './column-data.js'

export interface TableBatch {
  table: string
  columns: ColumnSpec[]
  /** Nanoseconds, one per row. */
  time: BigInt64Array
  /** One per entry of `columns`. */
  data: ColumnData[]
}

/** Every buffer of the batches, to transfer them between threads instead of copying. */
export function transferList(tables: TableBatch[]): ArrayBuffer[] {
  return tables.flatMap((t) => [t.time.buffer as ArrayBuffer, ...t.data.flatMap(buffersOf)])
}

function fieldType(f: Field): ColumnType {
  if (f.kind === Kind.INT || f.kind === Kind.UINT || f.kind === Kind.FLOAT) return 'DOUBLE'
  if (f.kind === Kind.BOOL) return 'BOOLEAN'
  return 'VARCHAR'
}

export function text(v: unknown): string {
  if (typeof v === 'string') return v
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64')
  if (typeof v === 'object' && v !== null && 'items' in v)
    return JSON.stringify((v as { items: unknown[] }).items, (_k, x) =>
      typeof x === 'bigint' ? x.toString() : x instanceof Uint8Array ? text(x) : x,
    )
  return String(v)
}

export function cell(type: ColumnType, v: unknown): Cell {
  if (v === undefined || v === null) return null
  if (type === 'DOUBLE') return Number(v)
  if (type === 'BOOLEAN') return v as boolean
  return text(v)
}

interface Group {
  rows: Point[]
  index: Map<string, number>
  columns: ColumnSpec[]
  raw: unknown[][]
}

function slot(g: Group, name: string, kind: ColumnSpec['kind'], type: ColumnType): number {
  let c = g.index.get(name)
  if (c === undefined) {
    c = g.columns.length
    g.index.set(name, c)
    g.columns.push({ name, kind, type })
    g.raw.push([])
  } else if (g.columns[c].type !== type) g.columns[c].type = 'VARCHAR'
  return c
}

export function toColumns(category: Category, points: Point[]): TableBatch[] {
  const groups = new Map<string, Group>()
  for (const p of points) {
    const table = tableName(category, p.name)
    let g = groups.get(table)
    if (!g) groups.set(table, (g = { rows: [], index: new Map(), columns: [], raw: [] }))
    const r = g.rows.length
    g.rows.push(p)
    for (const t of p.tags) g.raw[slot(g, columnFor(t.key), 'tag', 'VARCHAR')][r] = t.value
    for (const f of p.fields) g.raw[slot(g, columnFor(f.key), 'field', fieldType(f))][r] = f.value
  }
  return [...groups].map(([table, g]) => {
    const n = g.rows.length
    const time = new BigInt64Array(n)
    g.rows.forEach((p, i) => (time[i] = p.time ?? 0n))
    const data = g.columns.map((c, ci) => {
      const out = new Array<Cell>(n)
      for (let i = 0; i < n; i++) out[i] = cell(c.type, g.raw[ci][i])
      return encodeCells(c.type, out)
    })
    return { table, columns: g.columns, time, data }
  })
}
