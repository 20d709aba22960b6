/**
 * A query plan (plan.ts) as one DuckDB statement over the measurement's table; DuckDB does the
 * filtering, bucketing, aggregation, series ranking and limits. Shape:
 *
 *   inner:  SELECT <BY tags> AS b0.., <time or bucket> AS time, <outputs> AS v0.. [, rowid]
 *           FROM <table> WHERE <time range> AND <where> AND <conditions> [AND <after cursor>]
 *           [GROUP BY ALL]   (the FROM item and the rollup subquery are from.ts)
 *   outer:  with BY: rank series (dense_rank over the tags) and rows within each series
 *           (row_number), keep SOFFSET/SLIMIT series and OFFSET/LIMIT rows per series;
 *           without BY: ORDER BY .. LIMIT .. OFFSET.
 *
 * The answer holds at most maxRows + 1 rows (one more tells the caller it was cut). Rows are
 * `b0.., time (ns), v0..`, then the row id when the plan pages with a tiebreaker, then the
 * series and row ranks with BY.
 */
import type { DuckDBValue } from '@duckdb/node-api'
import type { Limits, QueryPlan } from '../plan.js'
import type { Cursor } from '../search-after.js'
import { ident, TIME_COLUMN } from '../../store/names.js'
import { rollupSql, tableSql } from './from.js'
import { outputSql, orderSql } from './select.js'
import { nsLiteral, Params, ref, type Scope } from './sql.js'
import { condition } from './where.js'

export interface Rendered {
  sql: string
  params: DuckDBValue[]
}

/** The column the row id is returned as. */
export const ROW_ID = '__id'

/** The filter for rows after the cursor in the query's order. */
function cursorSql(c: Cursor, desc: boolean, withId: boolean): string | null {
  const t = ident(TIME_COLUMN)
  const op = desc ? '<' : '>'
  if (c.kind === 'time') return `${t} ${op} ${nsLiteral(c.ms)}`
  if (c.kind === 'first') return null
  if (!withId) return `${t} ${op} ${c.timeNs}`
  return `(${t} ${op} ${c.timeNs} OR (${t} = ${c.timeNs} AND rowid ${op} ${c.id}))`
}

function whereSql(scope: Scope, plan: QueryPlan): string {
  const t = ident(TIME_COLUMN)
  const { range, paging } = plan
  const parts = [`${t} >= ${nsLiteral(range.startMs)}`]
  if (range.endMs !== null) parts.push(`${t} < ${nsLiteral(range.endMs)}`)
  if (plan.where) parts.push(condition(scope, plan.where))
  if (plan.conditions) parts.push(`(${condition(scope, plan.conditions)})`)
  const after = paging.cursor && cursorSql(paging.cursor, paging.desc, paging.tiebreak)
  if (after) parts.push(after)
  return parts.join(' AND ')
}

function timeSql(plan: QueryPlan): string {
  const t = ident(TIME_COLUMN)
  if (!plan.aggregated) return t
  if (!plan.bucket) return `min(${t})`
  const step = nsLiteral(plan.bucket.stepMs)
  if (plan.bucket.originMs === null) return `(${t} // ${step}) * ${step}`
  const origin = nsLiteral(plan.bucket.originMs)
  return `${origin} + ((${t} - ${origin}) // ${step}) * ${step}`
}

function innerSql(scope: Scope, plan: QueryPlan): string {
  const t = ident(TIME_COLUMN)
  const by = plan.groupBy.map((b, i) => `${ref(scope, b)} AS ${ident(`b${i}`)}`)
  const outs = plan.outputs.map((o, i) => `${outputSql(scope, o)} AS ${ident(`v${i}`)}`)
  const cols = [...by, `${timeSql(plan)} AS ${t}`, ...outs]
  if (plan.paging.tiebreak) cols.push(`rowid AS ${ident(ROW_ID)}`)
  const where = whereSql(scope, plan)
  const group = plan.aggregated ? ' GROUP BY ALL HAVING count(*) > 0' : ''
  const from = tableSql(scope, plan)
  if (plan.rollup) {
    const rolled = rollupSql(scope, plan, from, where, timeSql(plan))
    return `SELECT ${cols.join(', ')} FROM ${rolled}${group}`
  }
  return `SELECT ${cols.join(', ')} FROM ${from} WHERE ${where}${group}`
}

function outerSql(inner: string, order: string, nBy: number, l: Limits, maxRows: number): string {
  const cap = maxRows + 1
  if (nBy === 0) {
    const limit = l.limit === null ? cap : Math.min(l.limit, cap)
    return `SELECT * FROM (${inner}) ORDER BY ${order} LIMIT ${limit} OFFSET ${l.offset}`
  }
  const bys = Array.from({ length: nBy }, (_, i) => ident(`b${i}`))
  const rank = `dense_rank() OVER (ORDER BY ${bys.map((b) => `${b} ASC NULLS LAST`).join(', ')}) AS "__s"`
  const row = `row_number() OVER (PARTITION BY ${bys.join(', ')} ORDER BY ${order}) AS "__r"`
  const keep = [`"__s" > ${l.soffset}`, `"__r" > ${l.offset}`]
  if (l.slimit !== null) keep.push(`"__s" <= ${l.soffset + l.slimit}`)
  if (l.limit !== null) keep.push(`"__r" <= ${l.offset + l.limit}`)
  return `SELECT * FROM (SELECT *, ${rank}, ${row} FROM (${inner})) WHERE ${keep.join(' AND ')} ORDER BY "__s", "__r" LIMIT ${cap}`
}

export function renderDuckDb(plan: QueryPlan): Rendered {
  const scope: Scope = { table: plan.source.info, params: new Params() }
  let order = orderSql(plan.order)
  if (plan.paging.tiebreak) order += `, ${ident(ROW_ID)} ${plan.paging.desc ? 'DESC' : 'ASC'}`
  const inner = innerSql(scope, plan)
  const sql = outerSql(inner, order, plan.groupBy.length, plan.limits, plan.maxRows)
  return { sql, params: scope.params.list }
}
