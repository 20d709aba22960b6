/**
 * A plan's outputs and order as DuckDB SQL. A field the table has never seen aggregates as a
 * NULL DOUBLE; avg and sum of a non-numeric column read the values that parse as numbers.
 * Order keys name the inner query's columns (`time`, `v<i>`, `b<i>`), NULLs last.
 */
import type { OrderKey, PlanOrder, PlanOutput } from '../plan.js'
import { ident, TIME_COLUMN } from '../../store/names.js'
import { column, ref, type Scope } from './sql.js'

function aggregate(scope: Scope, o: Extract<PlanOutput, { kind: 'aggregate' }>): string {
  if (o.column === '*') return 'count(*)'
  const col = column(scope, o.column)
  let arg = ref(scope, o.column)
  if (!col) arg = 'CAST(NULL AS DOUBLE)'
  else if (col.type !== 'DOUBLE' && (o.func === 'avg' || o.func === 'sum'))
    arg = `TRY_CAST(${arg} AS DOUBLE)`
  const t = ident(TIME_COLUMN)
  if (o.func === 'last') return `arg_max(${arg}, ${t})`
  if (o.func === 'first') return `arg_min(${arg}, ${t})`
  return `${o.func}(${arg})`
}

export function outputSql(scope: Scope, o: PlanOutput): string {
  return o.kind === 'aggregate' ? aggregate(scope, o) : ref(scope, o.column)
}

function keySql(k: OrderKey): string {
  if (k.kind === 'time') return ident(TIME_COLUMN)
  return ident(`${k.kind === 'output' ? 'v' : 'b'}${k.index}`)
}

export function orderSql(order: PlanOrder[]): string {
  return order.map((o) => `${keySql(o.key)} ${o.desc ? 'DESC' : 'ASC'} NULLS LAST`).join(', ')
}
