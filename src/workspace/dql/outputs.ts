/**
 * A select list as plan outputs (plan-value.ts) and post steps. Each item is an aggregate,
 * math or arithmetic expression, a plain field, or a series function around one of those
 * (`derivative(usage)`, `moving_average(avg(usage), 3)`), which becomes a post transform. A
 * query with any aggregate is aggregated, and then reads fields only inside aggregates.
 * `distinct(x)` stands alone (its list becomes rows); `top`/`bottom` are rewritten by
 * top-bottom.ts. Unknown functions and misplaced ones are refused with their position.
 */
import type { SelectItem, SelExpr } from './ast.js'
import { bad } from './invalid.js'
import { queryError } from './lexer.js'
import { exprText } from './select-expr.js'
import type { PlanOutput, SeriesFunc, Transform } from './plan.js'
import { AGG_FUNCS, MATH_FUNCS, type AggFunc, type MathFunc, type PlanValue } from './plan-value.js'

export const SERIES_FUNCS: SeriesFunc[] = [
  'derivative',
  'non_negative_derivative',
  'difference',
  'non_negative_difference',
  'moving_average',
  'cumsum',
  'rate',
  'irate',
]
/** Aggregates a select list may call (rate and deriv are rollups only). */
const SELECT_AGGS = AGG_FUNCS.filter((f) => f !== 'rate' && f !== 'deriv')
const CASTS = ['int', 'float']

export interface Outputs {
  list: PlanOutput[]
  /** Each output's select expression as text (ORDER BY, HAVING and SORDER BY match it). */
  texts: string[]
  aggregated: boolean
  transforms: Transform[]
  explode: number | null
}

const known = () =>
  [...SELECT_AGGS, ...MATH_FUNCS, ...SERIES_FUNCS, 'top', 'bottom'].sort().join(', ')

function numberArg(e: SelExpr | undefined, call: SelExpr, what: string): number {
  if (e?.kind !== 'number') throw queryError(e?.pos ?? call.pos, `expected ${what}`)
  return e.value
}

/** The field an aggregate reads: a name, `*` for count, or int()/float() of a name. */
function aggColumn(func: AggFunc, e: SelExpr | undefined, call: SelExpr): string {
  if (e?.kind === 'call' && CASTS.includes(e.name.toLowerCase()) && e.args.length === 1)
    return aggColumn(func, e.args[0], call)
  if (e?.kind !== 'field') throw queryError(e?.pos ?? call.pos, `${func}() takes a field name`)
  if (e.name === '*' && func !== 'count')
    throw queryError(e.pos, `${func}(*) is not allowed; only count(*)`)
  return e.name
}

function aggregate(e: Extract<SelExpr, { kind: 'call' }>, func: AggFunc): PlanValue {
  const inner = e.args[0]
  if (func === 'count' && inner?.kind === 'call' && inner.name.toLowerCase() === 'distinct')
    return aggregate(inner, 'count_distinct')
  const column = aggColumn(func, inner, e)
  if (func !== 'percentile') {
    if (e.args.length !== 1) throw queryError(e.pos, `${func}() takes one argument`)
    return { kind: 'aggregate', func, column }
  }
  const p = numberArg(e.args[1], e, 'a percentile between 0 and 100')
  if (p < 0 || p > 100 || e.args.length !== 2)
    throw queryError(e.args[1].pos, 'percentile(field, p) takes p between 0 and 100')
  return { kind: 'aggregate', func, column, param: p }
}

function math(e: Extract<SelExpr, { kind: 'call' }>, func: MathFunc): PlanValue {
  const arity = func === 'pow' ? [2] : func === 'log' ? [1, 2] : [1]
  if (!arity.includes(e.args.length))
    throw queryError(e.pos, `${func}() takes ${arity.join(' or ')} argument(s)`)
  const args = e.args.map(value)
  if (func === 'log' && args.length === 1) return { kind: 'math', func: 'ln', args }
  return { kind: 'math', func, args }
}

export function value(e: SelExpr): PlanValue {
  switch (e.kind) {
    case 'field':
      if (e.name === '*') throw queryError(e.pos, '* is allowed alone or in count(*)')
      return { kind: 'column', column: e.name }
    case 'number':
      return { kind: 'number', value: e.value }
    case 'string':
      throw queryError(e.pos, 'a string is allowed only as a function argument')
    case 'binary':
      return { kind: 'arith', op: e.op, left: value(e.left), right: value(e.right) }
    case 'call': {
      const f = e.name.toLowerCase()
      if ((SELECT_AGGS as string[]).includes(f)) return aggregate(e, f as AggFunc)
      if ((MATH_FUNCS as readonly string[]).includes(f)) return math(e, f as MathFunc)
      if ([...SERIES_FUNCS, 'top', 'bottom'].includes(f))
        throw queryError(e.pos, `${e.name}() must be a whole select item, not inside another`)
      throw queryError(e.pos, `unknown function ${e.name}(); use one of ${known()}`)
    }
  }
}

function hasAggregate(v: PlanValue): boolean {
  if (v.kind === 'aggregate') return true
  if (v.kind === 'arith') return hasAggregate(v.left) || hasAggregate(v.right)
  return v.kind === 'math' && v.args.some(hasAggregate)
}

function bareColumn(v: PlanValue): boolean {
  if (v.kind === 'column') return true
  if (v.kind === 'arith') return bareColumn(v.left) || bareColumn(v.right)
  return v.kind === 'math' && v.args.some(bareColumn)
}

/** A series function item: its transform and the value it transforms. */
function seriesItem(e: Extract<SelExpr, { kind: 'call' }>, output: number) {
  const func = e.name.toLowerCase() as SeriesFunc
  const t: Transform = { output, func }
  if (func === 'moving_average') {
    const n = numberArg(e.args[1], e, 'a window size: moving_average(field, n)')
    if (!Number.isInteger(n) || n < 1 || e.args.length !== 2)
      throw queryError(e.args[1].pos, 'moving_average(field, n) takes a whole n of at least 1')
    t.param = n
  } else if (e.args.length !== 1) throw queryError(e.pos, `${e.name}() takes one argument`)
  return { t, v: value(e.args[0]) }
}

export function buildOutputs(items: SelectItem[]): Outputs {
  const out: Outputs = { list: [], texts: [], aggregated: false, transforms: [], explode: null }
  items.forEach((it, i) => {
    const e = it.expr
    const f = e.kind === 'call' ? e.name.toLowerCase() : ''
    let v: PlanValue
    if (e.kind === 'call' && (SERIES_FUNCS as string[]).includes(f)) {
      const s = seriesItem(e, i)
      out.transforms.push(s.t)
      v = s.v
    } else v = value(e)
    if (v.kind === 'aggregate' && v.func === 'distinct') {
      if (items.length > 1) throw queryError(e.pos, 'distinct() must be the only select item')
      out.explode = i
    }
    out.texts.push(exprText(e))
    out.list.push({ ...v, name: it.alias ?? exprText(e) })
  })
  out.aggregated = out.list.some(hasAggregate)
  if (out.aggregated && out.list.some(bareColumn))
    throw bad('aggregate functions and plain fields cannot be mixed in one select list')
  return out
}
