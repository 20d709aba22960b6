/**
 * Helpers shared by the ClickHouse dialect: parameters, column references, literals. ClickHouse
 * 18.16 has no query parameters: values from the query travel as `$n` and the engine's client
 * binds them as escaped literals (store/clickhouse/sql.ts), so no value reaches the text raw.
 * Aliases this dialect makes start with `__` and never equal a column's name: 18.16 would read
 * such an alias wherever the column is named in the same SELECT (its WHERE included).
 */
import type { Column, ColumnType, TableInfo } from '../../store/catalog.js'
import type { QueryParam } from '../../store/engine.js'
import { chIdent } from '../../store/clickhouse/sql.js'
import { TIME_COLUMN } from '../../store/names.js'
import { bad } from '../invalid.js'

export class Params {
  readonly list: QueryParam[] = []
  add(v: QueryParam): string {
    this.list.push(v)
    return `$${this.list.length}`
  }
}

export interface Scope {
  table: TableInfo
  params: Params
  /** The time column as this scope names it (`time`, or the rollup's `__rt`). */
  time: string
}

/** The stored types of the catalog's logical types. */
export const CH_TYPES: Record<ColumnType, string> = {
  DOUBLE: 'Nullable(Float64)',
  BOOLEAN: 'Nullable(UInt8)',
  VARCHAR: 'Nullable(String)',
}

export function column(scope: Scope, name: string): Column | undefined {
  return scope.table.byName.get(name)
}

/** A column reference; a key the table has never seen reads as NULL, as in a schemaless store. */
export function ref(scope: Scope, name: string): string {
  if (name === TIME_COLUMN) return scope.time
  const c = column(scope, name)
  return c ? chIdent(c.phys) : 'NULL'
}

/** A column as text (booleans and numbers as their text). */
export function text(scope: Scope, name: string): string {
  const c = column(scope, name)
  if (name === TIME_COLUMN) return `toString(${scope.time})`
  if (!c) return 'NULL'
  return c.type === 'VARCHAR' ? ref(scope, name) : `toString(${ref(scope, name)})`
}

/** Times in nanoseconds (the stored `Int64`), as literals. */
export function nsLiteral(ms: number): string {
  return String(BigInt(Math.round(ms)) * 1_000_000n)
}

/** A number from the query (the lexer only makes finite ones) as a Float64 literal. */
export function numLiteral(v: number): string {
  if (!Number.isFinite(v)) throw bad(`not a finite number: ${v}`)
  return `toFloat64(${String(v)})`
}
