/**
 * Refer tables in the reference's JSON format: a list of
 * `{table_name, column_name: [...], column_type: [...], row_data: [[...], ...]}`, each cell
 * converted to its column's type (`string`, `int`, `float`, `bool`).
 *
 * Invariants: a table whose columns and types differ in length, names an unknown type, or has
 * a row of another width or a cell that does not convert is refused whole (with the reason);
 * the other tables load. A later table of the same name replaces an earlier one. Lookups are
 * exact matches on typed values (an int column matches the number 3, not the string "3").
 */
export type Cell = string | number | boolean
export type ColumnType = 'string' | 'int' | 'float' | 'bool'

export interface ReferTable {
  columns: string[]
  types: ColumnType[]
  rows: Cell[][]
}

export interface ParsedTables {
  tables: Map<string, ReferTable>
  rows: number
  /** One line per refused table. */
  refused: string[]
}

const TYPES = new Set<string>(['string', 'int', 'float', 'bool'])

function convert(v: unknown, type: ColumnType): Cell | undefined {
  if (type === 'string') return typeof v === 'string' ? v : v === null ? undefined : String(v)
  if (type === 'bool') {
    if (typeof v === 'boolean') return v
    return v === 'true' ? true : v === 'false' ? false : undefined
  }
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : NaN
  if (!Number.isFinite(n)) return undefined
  return type === 'int' ? (Number.isInteger(n) ? n : undefined) : n
}

function tableOf(t: Record<string, unknown>): ReferTable | string {
  const { column_name: cols, column_type: types, row_data: rows } = t
  if (!Array.isArray(cols) || !cols.every((c) => typeof c === 'string')) return 'bad column_name'
  if (!Array.isArray(types) || types.length !== cols.length || !types.every((x) => TYPES.has(x)))
    return 'column_type must give string, int, float or bool for every column'
  if (!Array.isArray(rows)) return 'row_data is not a list'
  const out: Cell[][] = []
  for (const [i, row] of rows.entries()) {
    if (!Array.isArray(row) || row.length !== cols.length) return `row ${i}: wrong width`
    const cells = row.map((v, j) => convert(v, types[j] as ColumnType))
    const bad = cells.findIndex((c) => c === undefined)
    if (bad >= 0) return `row ${i}: ${String(cols[bad])} is not ${String(types[bad])}`
    out.push(cells as Cell[])
  }
  return { columns: cols as string[], types: types as ColumnType[], rows: out }
}

/** Parses the format; throws only when the text is not a JSON list. */
export function parseReferTables(text: string): ParsedTables {
  const doc: unknown = JSON.parse(text)
  if (!Array.isArray(doc)) throw new Error('refer tables: the document is not a JSON list')
  const parsed: ParsedTables = { tables: new Map(), rows: 0, refused: [] }
  for (const t of doc as unknown[]) {
    const rec = (typeof t === 'object' && t !== null ? t : {}) as Record<string, unknown>
    const name = rec.table_name
    const table = typeof name === 'string' && name ? tableOf(rec) : 'no table_name'
    if (typeof table === 'string') parsed.refused.push(`${String(name)}: ${table}`)
    else parsed.tables.set(name as string, table)
  }
  for (const t of parsed.tables.values()) parsed.rows += t.rows.length
  return parsed
}

/** The first row whose `keys` columns equal `values`, as [column, value, type]; null when none. */
export function queryTable(
  tables: Map<string, ReferTable>,
  name: string,
  keys: string[],
  values: unknown[],
): [string, Cell, ColumnType][] | null {
  const t = tables.get(name)
  if (!t || keys.length === 0 || keys.length !== values.length) return null
  const idx = keys.map((k) => t.columns.indexOf(k))
  if (idx.some((i) => i < 0)) return null
  const row = t.rows.find((r) => idx.every((i, n) => r[i] === values[n]))
  if (!row) return null
  return t.columns.map((c, i) => [c, row[i] as Cell, t.types[i] as ColumnType])
}
