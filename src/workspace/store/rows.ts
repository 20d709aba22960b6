/**
 * Turns points into table rows: groups them by table, works out the columns each group needs
 * and appends rows in the table's column order.
 */
import type { DuckDBAppender } from '@duckdb/node-api'
import type { Category } from '../../shared/category.js'
import { Kind, type Field, type Point } from '../../shared/point.js'
import type { Column, ColumnType } from './catalog.js'
import { columnFor, tableName } from './names.js'

export interface TableRows {
  table: string
  points: Point[]
  wanted: Column[]
}

function fieldType(f: Field): ColumnType {
  if (f.kind === Kind.INT || f.kind === Kind.UINT || f.kind === Kind.FLOAT) return 'DOUBLE'
  if (f.kind === Kind.BOOL) return 'BOOLEAN'
  return 'VARCHAR'
}

function want(wanted: Map<string, Column>, name: string, c: Omit<Column, 'name'>): void {
  const have = wanted.get(name)
  if (!have) wanted.set(name, { name, ...c })
  else if (have.type !== c.type) have.type = 'VARCHAR'
}

export function groupByTable(category: Category, points: Point[]): TableRows[] {
  const groups = new Map<string, { points: Point[]; wanted: Map<string, Column> }>()
  for (const p of points) {
    const table = tableName(category, p.name)
    let g = groups.get(table)
    if (!g) groups.set(table, (g = { points: [], wanted: new Map() }))
    g.points.push(p)
    for (const t of p.tags) want(g.wanted, columnFor(t.key), { kind: 'tag', type: 'VARCHAR' })
    for (const f of p.fields)
      want(g.wanted, columnFor(f.key), { kind: 'field', type: fieldType(f) })
  }
  return [...groups].map(([table, g]) => ({
    table,
    points: g.points,
    wanted: [...g.wanted.values()],
  }))
}

function text(v: unknown): string {
  if (typeof v === 'string') return v
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64')
  if (typeof v === 'object' && v !== null && 'items' in v)
    return JSON.stringify((v as { items: unknown[] }).items, (_k, x) =>
      typeof x === 'bigint' ? x.toString() : x instanceof Uint8Array ? text(x) : x,
    )
  return String(v)
}

function appendValue(app: DuckDBAppender, type: ColumnType, v: unknown): void {
  if (v === undefined || v === null) app.appendNull()
  else if (type === 'DOUBLE') app.appendDouble(Number(v))
  else if (type === 'BOOLEAN') app.appendBoolean(v as boolean)
  else app.appendVarchar(text(v))
}

/** Appends one row per point; `columns` is the table's column list after `Catalog.ensure`. */
export function appendRows(app: DuckDBAppender, columns: Column[], points: Point[]): void {
  const index = new Map(columns.map((c, i) => [c.name, i]))
  const row: unknown[] = new Array(columns.length)
  for (const p of points) {
    row.fill(undefined)
    for (const t of p.tags) row[index.get(columnFor(t.key))!] = t.value
    for (const f of p.fields) row[index.get(columnFor(f.key))!] = f.value
    app.appendBigInt(p.time ?? BigInt(Date.now()) * 1_000_000n)
    for (let i = 0; i < columns.length; i++) appendValue(app, columns[i].type, row[i])
    app.endRow()
  }
}
