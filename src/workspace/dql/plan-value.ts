/**
 * The values a plan's outputs compute, engine-neutral: a column, a number, an aggregate over
 * the rows of a group, arithmetic and math functions. An aggregated plan's outputs read columns
 * only inside aggregates. What each aggregate means, for every engine:
 *
 * - avg, sum: of the values that read as numbers; min, max, count (non-null values; `*`: rows)
 * - first, last: the value of the earliest / latest row
 * - count_distinct: distinct non-null values; mode: the most frequent value
 * - median, percentile(param 0..100): continuous (interpolated) quantiles of the numbers
 * - stddev: sample standard deviation (null for fewer than 2 values); spread: max - min
 * - distinct: the list of distinct non-null values (post.explode turns it into rows)
 * - rate, deriv: (last - first) / seconds between the first and the last row, rate clamped at 0
 *   (the rollup functions of the same name; null for fewer than 2 rows)
 *
 * Arithmetic follows SQL: null in, null out; division by zero is null. Math: abs, ceil, floor,
 * round, sqrt, ln, log10, log2, exp, pow(x, y), log(x, base) = ln(x) / ln(base).
 */
import type { ArithOp } from './ast.js'

export const AGG_FUNCS = [
  'avg',
  'min',
  'max',
  'sum',
  'count',
  'first',
  'last',
  'count_distinct',
  'median',
  'percentile',
  'stddev',
  'spread',
  'mode',
  'distinct',
  'rate',
  'deriv',
] as const
export type AggFunc = (typeof AGG_FUNCS)[number]

/** Aggregates of numbers: they read a text column's values that parse as numbers. */
export const NUMERIC_AGGS: readonly AggFunc[] = [
  'avg',
  'sum',
  'median',
  'percentile',
  'stddev',
  'spread',
  'rate',
  'deriv',
]

export const MATH_FUNCS = [
  'abs',
  'ceil',
  'floor',
  'round',
  'sqrt',
  'ln',
  'log10',
  'log2',
  'exp',
  'pow',
  'log',
] as const
export type MathFunc = (typeof MATH_FUNCS)[number]

export type PlanValue =
  | { kind: 'column'; column: string }
  | { kind: 'number'; value: number }
  /** `column` is `*` only for count(*); `param` only for percentile. */
  | { kind: 'aggregate'; func: AggFunc; column: string; param?: number }
  | { kind: 'arith'; op: ArithOp; left: PlanValue; right: PlanValue }
  | { kind: 'math'; func: MathFunc; args: PlanValue[] }

/** Calls `visit` on every aggregate of a value tree. */
export function aggregatesOf(v: PlanValue, out: Extract<PlanValue, { kind: 'aggregate' }>[] = []) {
  if (v.kind === 'aggregate') out.push(v)
  else if (v.kind === 'arith') {
    aggregatesOf(v.left, out)
    aggregatesOf(v.right, out)
  } else if (v.kind === 'math') for (const a of v.args) aggregatesOf(a, out)
  return out
}
