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

function math(scope: Scope, v: Extract<PlanValue, { kind: 'math' }>): string {
  const [a, b] = v.args.map((x) => operand(scope, x))
  if (v.func === 'ln') return `(CASE WHEN ${a} > 0 THEN log(${a}) END)`
  if (v.func === 'log10' || v.func === 'log2')
    return `(CASE WHEN ${a} > 0 THEN ${v.func}(${a}) END)`
  if (v.func === 'log')
    return `(CASE WHEN ${a} > 0 AND ${b} > 0 THEN log(${a}) / nullIf(log(${b}), 0) END)`
  if (v.func === 'sqrt') return `(CASE WHEN ${a} >= 0 THEN sqrt(${a}) END)`
  if (v.func === 'pow') return `pow(${a}, ${b})`
  return `${v.func}(${a})`
}

/** A value inside arithmetic or math: columns read as numbers. */
function operand(scope: Scope, v: PlanValue): string {
  return v.kind === 'column' ? numeric(scope, v.column) : valueSql(scope, v)
}

function arith(scope: Scope, v: Extract<PlanValue, { kind: 'arith' }>): string {
  const [l, r] = [operand(scope, v.left), operand(scope, v.right)]
  if (v.op === '/') return `(${l} / nullIf(${r}, 0))`
  // 18.16's % truncates floats to integers; DuckDB's keeps the dividend's sign and fraction.
  if (v.op === '%') return `(${l} - trunc(${l} / nullIf(${r}, 0)) * ${r})`
  return `(${l} ${v.op} ${r})`
}

export function valueSql(scope: Scope, v: PlanValue): string {
  switch (v.kind) {
    case 'column':
      return ref(scope, v.column)
    case 'number':
      return numLiteral(v.value)
    case 'aggregate':
      return aggregate(scope, v)
    case 'math':
      return math(scope, v)
    case 'arith':
      return arith(scope, v)
  }
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
  return order.map((o) => `${keySql(o.key)} ${o.desc ? 'DESC' : 'ASC'} NULLS LAST`).join(', ')
}
