/**
 * A plan's post steps (plan.ts `Post`) on the series an engine answered, engine-neutral, in
 * order: series functions (per series, ascending time, then the plan's time order again), list
 * outputs exploded into rows, HAVING, series order (SORDER BY: by each series' largest value
 * of the output when descending, smallest when ascending, ties by the engine's order), then
 * the lifted row limits per series and series limits. Series left without rows are dropped.
 * Rows are `[time, ...outputs]`.
 */
import type { Limits, Post, PlanOrder, QueryPlan } from './plan.js'
import { rowMatches } from './post-filter.js'
import { applySeriesFunc } from './transform.js'

export interface RowSeries {
  columns: string[]
  values: unknown[][]
}

function transform<S extends RowSeries>(s: S, post: Post, order: PlanOrder[]): S {
  const rows = [...s.values].sort((a, b) => (a[0] as number) - (b[0] as number))
  const times = rows.map((r) => r[0] as number)
  const outs = post.transforms.map((t) =>
    applySeriesFunc(
      t.func,
      times,
      rows.map((r) => r[1 + t.output]),
      t.param,
    ),
  )
  const kept: unknown[][] = []
  rows.forEach((r, i) => {
    if (outs.every((o) => o[i] === undefined)) return
    const row = [...r]
    post.transforms.forEach((t, k) => (row[1 + t.output] = outs[k][i] ?? null))
    kept.push(row)
  })
  if (order[0]?.desc !== false) kept.reverse()
  return { ...s, values: kept }
}

function explode<S extends RowSeries>(s: S, output: number): S {
  const values = s.values.flatMap((r) => {
    const list = r[1 + output]
    return (Array.isArray(list) ? list : []).map((item) => {
      const row = [...r]
      row[0] = null
      row[1 + output] = item
      return row
    })
  })
  return { ...s, values }
}

function seriesKey(s: RowSeries, output: number, desc: boolean): number {
  const nums = s.values.map((r) => r[1 + output]).filter((v): v is number => typeof v === 'number')
  if (!nums.length) return desc ? -Infinity : Infinity
  return desc ? Math.max(...nums) : Math.min(...nums)
}

function sortSeries<S extends RowSeries>(list: S[], keys: Post['seriesOrder']): S[] {
  const ranked = list.map((s, i) => ({ s, i, k: keys.map((o) => seriesKey(s, o.output, o.desc)) }))
  ranked.sort((a, b) => {
    for (let j = 0; j < keys.length; j++) {
      const d = keys[j].desc ? b.k[j] - a.k[j] : a.k[j] - b.k[j]
      if (d) return d
    }
    return a.i - b.i
  })
  return ranked.map((r) => r.s)
}

function cut<S extends RowSeries>(list: S[], l: Limits): S[] {
  const rows = list
    .map((s) => {
      const end = l.limit === null ? undefined : l.offset + l.limit
      return { ...s, values: s.values.slice(l.offset, end) }
    })
    .filter((s) => s.values.length > 0)
  return rows.slice(l.soffset, l.slimit === null ? undefined : l.soffset + l.slimit)
}

export function runPost<S extends RowSeries>(plan: QueryPlan, series: S[]): S[] {
  const post = plan.post
  let list = series
  if (post.transforms.length) list = list.map((s) => transform(s, post, plan.order))
  if (post.explode !== null) list = list.map((s) => explode(s, post.explode!))
  const having = post.having
  if (having)
    list = list.map((s) => ({
      ...s,
      values: s.values.filter((r) => rowMatches(having, (n) => r[s.columns.indexOf(n)])),
    }))
  if (post.seriesOrder.length) list = sortSeries(list, post.seriesOrder)
  if (post.limits) list = cut(list, post.limits)
  return list.filter((s) => s.values.length > 0)
}
