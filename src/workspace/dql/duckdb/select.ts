/**
 * A plan's outputs and order as DuckDB SQL. A field the table has never seen aggregates as a
 * NULL DOUBLE; numeric aggregates and arithmetic read a non-numeric column's values that parse
 * as numbers. Division by zero and math outside a function's domain (ln, sqrt) give NULL, as
 * plan-value.ts promises every engine. Order keys name the inner query's columns (`time`,
 * `v<i>`, `b<i>`), NULLs last.
 */
import type { OrderKey, PlanOrder, PlanOutput } from '../plan.js'
import { NUMERIC_AGGS, type PlanValue } from '../plan-value.js'
import { ident, TIME_COLUMN } from '../../store/names.js'
import { column, numLiteral, ref, type Scope } from './sql.js'
import { orderByKeys, valueTreeSql, type ValueDialect } from '../value-sql.js'

type Agg = Extract<PlanValue, { kind: 'aggregate' }>

/** A column as a number where it must be one. */
function numeric(scope: Scope, name: string): string {
  const col = column(scope, name)
  if (!col) return 'CAST(NULL AS DOUBLE)'
  return col.type === 'DOUBLE' ? ref(scope, name) : `TRY_CAST(${ref(scope, name)} AS DOUBLE)`
}

function change(x: string, clamp: boolean): string {
  const t = ident(TIME_COLUMN)
  const v = `(arg_max(${x}, ${t}) - arg_min(${x}, ${t})) / nullif((max(${t}) - min(${t})) / 1e9, 0)`
  return clamp ? `greatest(${v}, 0)` : v
}

function aggregate(scope: Scope, o: Agg): string {
  if (o.column === '*') return 'count(*)'
  const x = NUMERIC_AGGS.includes(o.func)
    ? numeric(scope, o.column)
    : column(scope, o.column)
      ? ref(scope, o.column)
      : 'CAST(NULL AS DOUBLE)'
  const t = ident(TIME_COLUMN)
  switch (o.func) {
    case 'last':
      return `arg_max(${x}, ${t})`
    case 'first':
      return `arg_min(${x}, ${t})`
    case 'count_distinct':
      return `count(DISTINCT ${x})`
    case 'median':
      return `quantile_cont(${x}, 0.5)`
    case 'percentile':
      return `quantile_cont(${x}, ${numLiteral(o.param! / 100)})`
    case 'stddev':
      return `stddev_samp(${x})`
    case 'spread':
      return `(max(${x}) - min(${x}))`
    case 'distinct':
      return `list(DISTINCT ${x} ORDER BY ${x})`
    case 'rate':
    case 'deriv':
      return change(x, o.func === 'rate')
    default:
      return `${o.func}(${x})`
  }
}

function dialect(scope: Scope): ValueDialect {
  return {
    column: (name) => ref(scope, name),
    numeric: (name) => numeric(scope, name),
    number: numLiteral,
    aggregate: (v) => aggregate(scope, v),
    ln: 'ln',
    nullIf: 'nullif',
    mod: (a, b) => `(${a} % ${b})`,
  }
}

export function valueSql(scope: Scope, v: PlanValue): string {
  return valueTreeSql(dialect(scope), v)
}

export function outputSql(scope: Scope, o: PlanOutput): string {
  return valueSql(scope, o)
}

function keySql(k: OrderKey): string {
  if (k.kind === 'time') return ident(TIME_COLUMN)
  return ident(`${k.kind === 'output' ? 'v' : 'b'}${k.index}`)
}

export function orderSql(order: PlanOrder[]): string {
  return orderByKeys(order, keySql)
}
