/**
 * A metric table in the series layout (store/clickhouse/series-table.ts) as the FROM item of a
 * plan: the join of its points to its series with the plan's filters pushed into both sides,
 * so ClickHouse reads only the days of the range and, given a condition on tags alone, only the
 * points of the series it matches (an `IN` over the series ids: the points are sorted by id).
 * What is pushed is also kept in the outer WHERE; it only narrows what the join reads.
 */
import type { Expr } from '../ast.js'
import type { QueryPlan } from '../plan.js'
import { seriesJoinSql, type SeriesFilter } from '../../store/clickhouse/series-table.js'
import { chIdent } from '../../store/clickhouse/sql.js'
import { TIME_COLUMN } from '../../store/names.js'
import { nsLiteral, type Scope } from './sql.js'
import { condition } from './where.js'

function conjuncts(e: Expr | null): Expr[] {
  if (!e) return []
  return e.op === 'and' ? [...conjuncts(e.left), ...conjuncts(e.right)] : [e]
}

function columnsOf(e: Expr): string[] {
  if ('column' in e) return [e.column]
  return e.op === 'not' ? columnsOf(e.expr) : [...columnsOf(e.left), ...columnsOf(e.right)]
}

/** The conditions that read tag columns only, ANDed; null: none. */
function tagCondition(scope: Scope, plan: QueryPlan): string | null {
  const onTags = (e: Expr) => columnsOf(e).every((n) => scope.table.byName.get(n)?.kind === 'tag')
  const parts = [...conjuncts(plan.where), ...conjuncts(plan.conditions)].filter(onTags)
  return parts.length ? parts.map((e) => `(${condition(scope, e)})`).join(' AND ') : null
}

const dayOf = (ns: string) => `toDate(intDiv(${ns}, 1000000000))`

export function seriesFromSql(scope: Scope, plan: QueryPlan): string {
  const { startMs, endMs } = plan.range
  const t = chIdent(TIME_COLUMN)
  const day = chIdent('_day')
  const start = nsLiteral(startMs)
  const f: SeriesFilter = { points: `${t} >= ${start}`, series: `${day} >= ${dayOf(start)}` }
  if (endMs !== null) {
    const end = nsLiteral(endMs)
    f.points += ` AND ${t} < ${end}`
    f.series += ` AND ${day} <= ${dayOf(end)}`
  }
  const tags = tagCondition(scope, plan)
  if (tags) f.tags = tags
  return seriesJoinSql(scope.table, f)
}
