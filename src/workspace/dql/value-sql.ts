/**
 * A plan's value trees (plan-value.ts) and order as SQL, for any dialect: arithmetic and math
 * keep the promises of plan-value.ts (NULL in, NULL out; division by zero and math outside a
 * function's domain give NULL) whatever the engine; a dialect says how to read a column (as
 * is, or as a number inside arithmetic and math), how to write a number and an aggregate, and
 * the names of its few functions that differ.
 */
import type { OrderKey, PlanOrder } from './plan.js'
import type { PlanValue } from './plan-value.js'

export interface ValueDialect {
  column(name: string): string
  /** The column as a number (text that parses as one; NULL otherwise). */
  numeric(name: string): string
  number(v: number): string
  aggregate(v: Extract<PlanValue, { kind: 'aggregate' }>): string
  /** The natural logarithm's and NULLIF's names. */
  readonly ln: string
  readonly nullIf: string
  /** `a % b` for numbers, with b already NULL when zero. */
  mod(a: string, b: string): string
}

function math(d: ValueDialect, v: Extract<PlanValue, { kind: 'math' }>): string {
  const [a, b] = v.args.map((x) => operand(d, x))
  const f = v.func === 'ln' ? d.ln : v.func
  if (v.func === 'ln' || v.func === 'log10' || v.func === 'log2')
    return `(CASE WHEN ${a} > 0 THEN ${f}(${a}) END)`
  if (v.func === 'log')
    return `(CASE WHEN ${a} > 0 AND ${b} > 0 THEN ${d.ln}(${a}) / ${d.nullIf}(${d.ln}(${b}), 0) END)`
  if (v.func === 'sqrt') return `(CASE WHEN ${a} >= 0 THEN sqrt(${a}) END)`
  if (v.func === 'pow') return `pow(${a}, ${b})`
  return `${v.func}(${a})`
}

/** A value inside arithmetic or math: columns read as numbers. */
function operand(d: ValueDialect, v: PlanValue): string {
  return v.kind === 'column' ? d.numeric(v.column) : valueTreeSql(d, v)
}

export function valueTreeSql(d: ValueDialect, v: PlanValue): string {
  switch (v.kind) {
    case 'column':
      return d.column(v.column)
    case 'number':
      return d.number(v.value)
    case 'aggregate':
      return d.aggregate(v)
    case 'math':
      return math(d, v)
    case 'arith': {
      const [l, r] = [operand(d, v.left), operand(d, v.right)]
      if (v.op === '/') return `(${l} / ${d.nullIf}(${r}, 0))`
      if (v.op === '%') return d.mod(l, `${d.nullIf}(${r}, 0)`)
      return `(${l} ${v.op} ${r})`
    }
  }
}

/** ORDER BY of the inner query's columns, NULLs last; `key` names them in the dialect. */
export function orderByKeys(order: PlanOrder[], key: (k: OrderKey) => string): string {
  return order.map((o) => `${key(o.key)} ${o.desc ? 'DESC' : 'ASC'} NULLS LAST`).join(', ')
}
