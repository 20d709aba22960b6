/**
 * A plan's outputs and order as ClickHouse SQL, with the results DuckDB gives (duckdb/select.ts):
 * a field the table has never seen aggregates as a NULL Float64; numeric aggregates and
 * arithmetic read a text column's values that parse as numbers; division by zero and math
 * outside a function's domain give NULL. Median and percentile interpolate between the two
 * nearest values, as DuckDB's quantile_cont does (18.16's quantileExact picks one value), from
 * the group's sorted values; mode (18.16 has none) also reads them. Order keys name the inner query's aliases, NULLs last.
 */
import type { OrderKey, PlanOrder, PlanOutput } from '../plan.js'
import { NUMERIC_AGGS, type PlanValue } from '../plan-value.js'
import { chIdent } from '../../store/clickhouse/sql.js'
import { column, numLiteral, ref, type Scope } from './sql.js'
import { orderByKeys, valueTreeSql, type ValueDialect } from '../value-sql.js'

type Agg = Extract<PlanValue, { kind: 'aggregate' }>

const NULL_NUMBER = 'CAST(NULL AS Nullable(Float64))'

/** A column as a number where it must be one. */
function numeric(scope: Scope, name: string): string {
  const col = column(scope, name)
  if (!col) return NULL_NUMBER
  if (col.type === 'VARCHAR') return `toFloat64OrNull(${ref(scope, name)})`
  return col.type === 'BOOLEAN' ? `toFloat64(${ref(scope, name)})` : ref(scope, name)
}

function change(x: string, t: string, clamp: boolean): string {
  const v = `(argMax(${x}, ${t}) - argMin(${x}, ${t})) / nullIf((max(${t}) - min(${t})) / 1e9, 0)`
  return clamp ? `greatest(${v}, 0)` : v
}

/** Linear interpolation between the closest ranks, over the group's non-NULL values. */
function quantile(x: string, p: number): string {
  const a = `arraySort(groupArray(${x}))`
  const pos = `(${numLiteral(p)} * (length(${a}) - 1))`
  const lo = `(toUInt64(floor(${pos})) + 1)`
  const hi = `(toUInt64(ceil(${pos})) + 1)`
  const v = `(${a}[${lo}] + (${a}[${hi}] - ${a}[${lo}]) * (${pos} - floor(${pos})))`
  return `if(empty(${a}), ${NULL_NUMBER}, toNullable(${v}))`
}

/** The most frequent value (the smallest of those tied), from the group's sorted values. */
function mode(x: string): string {
  const a = `arraySort(groupArray(${x}))`
  const runs = `arrayEnumerateUniq(${a})`
  return `if(empty(${a}), NULL, toNullable(${a}[indexOf(${runs}, arrayReduce('max', ${runs}))]))`
}

function aggregate(scope: Scope, o: Agg): string {
  if (o.column === '*') return 'count()'
  const x = NUMERIC_AGGS.includes(o.func)
    ? numeric(scope, o.column)
    : column(scope, o.column)
      ? ref(scope, o.column)
      : NULL_NUMBER
  const t = scope.time
  switch (o.func) {
    case 'last':
      return `argMax(${x}, ${t})`
    case 'first':
      return `argMin(${x}, ${t})`
    case 'count_distinct':
      return `uniqExact(${x})`
    case 'median':
      return quantile(x, 0.5)
    case 'percentile':
      return quantile(x, o.param! / 100)
    case 'mode':
      return mode(x)
    case 'stddev':
      return `stddevSamp(${x})`
    case 'spread':
      return `(max(${x}) - min(${x}))`
    case 'distinct':
      return `arraySort(groupUniqArray(${x}))`
    case 'rate':
    case 'deriv':
      return change(x, t, o.func === 'rate')
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
    ln: 'log',
    nullIf: 'nullIf',
    // 18.16's % truncates floats to integers; DuckDB's keeps the dividend's sign and fraction.
    mod: (a, b) => `(${a} - trunc(${a} / ${b}) * ${b})`,
  }
}

export function valueSql(scope: Scope, v: PlanValue): string {
  return valueTreeSql(dialect(scope), v)
}

export function outputSql(scope: Scope, o: PlanOutput): string {
  return valueSql(scope, o)
}

/** The inner query's aliases: `__t` (time or bucket), `__v<i>` (outputs), `__b<i>` (BY). */
export const alias = {
  time: chIdent('__t'),
  output: (i: number) => chIdent(`__v${i}`),
  group: (i: number) => chIdent(`__b${i}`),
}

function keySql(k: OrderKey): string {
  if (k.kind === 'time') return alias.time
  return k.kind === 'output' ? alias.output(k.index) : alias.group(k.index)
}

export function orderSql(order: PlanOrder[]): string {
  return orderByKeys(order, keySql)
}
