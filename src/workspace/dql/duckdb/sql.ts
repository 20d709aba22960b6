/** Helpers shared by the DuckDB dialect: parameters, column references, literals. */
import type { DuckDBValue } from '@duckdb/node-api'
import type { Column, TableInfo } from '../../store/catalog.js'
import { ident, TIME_COLUMN } from '../../store/names.js'
import { bad } from '../invalid.js'

export class Params {
  readonly list: DuckDBValue[] = []
  add(v: DuckDBValue): string {
    this.list.push(v)
    return `$${this.list.length}`
  }
}

export interface Scope {
  table: TableInfo
  params: Params
}

export function column(scope: Scope, name: string): Column | undefined {
  return scope.table.byName.get(name)
}

/** A column reference; a key the table has never seen reads as NULL, as in a schemaless store. */
export function ref(scope: Scope, name: string): string {
  if (name === TIME_COLUMN) return ident(TIME_COLUMN)
  const c = column(scope, name)
  return c ? ident(c.phys) : 'NULL'
}

/**
 * Times in nanoseconds, as SQL literals. Numbers computed here are inlined rather than bound:
 * DuckDB plans a bound BIGINT in `time // $1` or `time >= $1` some 20 times slower (no filter
 * pushdown, wider arithmetic). Strings from the query always travel as parameters.
 */
export function nsLiteral(ms: number): string {
  return String(BigInt(Math.round(ms)) * 1_000_000n)
}

/** A number from the query (the lexer only makes finite ones) as a DOUBLE literal. */
export function numLiteral(v: number): string {
  if (!Number.isFinite(v)) throw bad(`not a finite number: ${v}`)
  return `CAST(${String(v)} AS DOUBLE)`
}
