/**
 * The rollup of a time expression (`[1h::5m:last]`): the function each series is reduced with
 * per bucket before the select list's aggregates combine the series. Functions: avg, sum, min,
 * max, count, first, last, median, stddev, rate, deriv and p50/p75/p90/p95/p99
 * (any pNN). Only an aggregated query has something to combine, so a rollup needs one.
 */
import type { Query } from './ast.js'
import { queryError } from './lexer.js'
import type { Rollup } from './plan.js'
import type { AggFunc } from './plan-value.js'
import type { TableInfo } from '../store/catalog.js'

const SAME: AggFunc[] = ['avg', 'sum', 'min', 'max', 'count', 'first', 'last', 'median', 'stddev']

export function planRollup(q: Query, info: TableInfo, aggregated: boolean): Rollup | null {
  const r = q.time?.rollup
  if (!r) return null
  const name = r.name.toLowerCase()
  const seriesKey = info.columns.filter((c) => c.kind === 'tag').map((c) => c.name)
  if (!aggregated)
    throw queryError(r.pos, 'a rollup needs an aggregate in the select list, e.g. sum(field)')
  if ((SAME as string[]).includes(name)) return { func: name as AggFunc, seriesKey }
  if (name === 'rate' || name === 'deriv') return { func: name, seriesKey }
  const p = /^p(\d{1,2}(\.\d+)?)$/.exec(name)
  if (p) return { func: 'percentile', param: Number(p[1]), seriesKey }
  throw queryError(
    r.pos,
    `unknown rollup ${r.name}; use avg, sum, min, max, count, first, last, median, stddev, rate, deriv or p50..p99`,
  )
}
