/** Helpers shared by the DQL compiler parts: parameters, column references, errors. */
import type { DuckDBValue } from '@duckdb/node-api'
import { FerryError } from '../../errors.js'
import type { Column, TableInfo } from '../store/catalog.js'
import { ident, TIME_COLUMN } from '../store/names.js'

export class Params {
  readonly list: DuckDBValue[] = []
  add(v: DuckDBValue): string {
    this.list.push(v)
    return `$${this.list.length}`
  }
}

export const bad = (message: string) => new FerryError('queryInvalid', message)

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
  return column(scope, name) ? ident(name) : 'NULL'
}

export function msToNs(ms: number): bigint {
  return BigInt(Math.round(ms)) * 1_000_000n
}
