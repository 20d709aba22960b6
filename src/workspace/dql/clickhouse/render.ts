/**
 * A query plan (plan.ts) as one ClickHouse 18.16 statement; ClickHouse filters, buckets,
 * aggregates and cuts. 18.16 has no window functions, so:
 *
 *   inner:  SELECT <BY tags> AS __b0.., <time or bucket> AS __t, <outputs> AS __v0..
 *           [, row id AS __id] FROM <table> WHERE <range, where, conditions, cursor>
 *           [GROUP BY <tags>, <bucket> HAVING count() > 0]
 *   outer:  with BY: the rows of the series SOFFSET/SLIMIT keep (a series key `__k`, non-NULL,
 *           IN the series list ordered by tags) in series then query order, `LIMIT n BY` the
 *           series, then the series key and 0 (where DuckDB returns its series and row ranks);
 *           without BY: ORDER BY .. LIMIT offset, n.
 *
 * `LIMIT n BY` takes no offset on 18.16: a BY query's row OFFSET is applied after the engine
 * (post.ts), the engine keeping offset + limit rows per series. The row id that breaks paging
 * ties is a 53-bit hash of the row (ClickHouse has no row id): two identical rows in one
 * nanosecond are one paging position. The answer holds at most maxRows + 1 rows.
 */
import type { Limits, QueryPlan } from '../plan.js'
import type { Cursor } from '../search-after.js'
import { chIdent } from '../../store/clickhouse/sql.js'
import { rollupSql, rolledScope, tableSql, type TableRef } from './from.js'
import { alias, orderSql, outputSql } from './select.js'
import { nsLiteral, Params, ref, type Scope } from './sql.js'
import type { QueryParam } from '../../store/engine.js'
import { condition } from './where.js'

export interface Rendered {
  sql: string
  params: QueryParam[]
  /** The plan the answer means: this one, or with the row offset moved after the engine. */
  plan: QueryPlan
}

const ROW_ID = chIdent('__id')
const SERIES = chIdent('__k')

/** A unique-enough row id a cursor can hold (a safe integer). */
function rowIdSql(scope: Scope): string {
  const cols = scope.table.columns.map((c) => `ifNull(toString(${chIdent(c.phys)}), '\\N')`)
  return `bitAnd(cityHash64(${[`toString(${scope.time})`, ...cols].join(', ')}), 9007199254740991)`
}

function cursorSql(scope: Scope, c: Cursor, desc: boolean, withId: boolean): string | null {
  const t = scope.time
  const op = desc ? '<' : '>'
  if (c.kind === 'time') return `${t} ${op} ${nsLiteral(c.ms)}`
  if (c.kind === 'first') return null
  if (!withId) return `${t} ${op} ${c.timeNs}`
  return `(${t} ${op} ${c.timeNs} OR (${t} = ${c.timeNs} AND ${rowIdSql(scope)} ${op} ${c.id}))`
}

function whereSql(scope: Scope, plan: QueryPlan): string {
  const t = scope.time
  const { range, paging } = plan
  const parts = [`${t} >= ${nsLiteral(range.startMs)}`]
  if (range.endMs !== null) parts.push(`${t} < ${nsLiteral(range.endMs)}`)
  if (plan.where) parts.push(condition(scope, plan.where))
  if (plan.conditions) parts.push(`(${condition(scope, plan.conditions)})`)
  const after = paging.cursor && cursorSql(scope, paging.cursor, paging.desc, paging.tiebreak)
  if (after) parts.push(after)
  return parts.join(' AND ')
}

/** The bucket start of `t` (floored, as DuckDB's `//`), or the group's first time. */
function timeSql(plan: QueryPlan, t: string): string {
  if (!plan.aggregated) return t
  if (!plan.bucket) return `min(${t})`
  const step = nsLiteral(plan.bucket.stepMs)
  if (plan.bucket.originMs === null) return `intDiv(${t}, ${step}) * ${step}`
  const origin = nsLiteral(plan.bucket.originMs)
  const d = `(${t} - ${origin})`
  return `${origin} + (intDiv(${d}, ${step}) - (${d} % ${step} < 0)) * ${step}`
}

function innerSql(scope: Scope, plan: QueryPlan, tableRef: TableRef): string {
  const read = plan.rollup ? rolledScope(scope, plan) : scope
  const by = plan.groupBy.map((b, i) => `${ref(read, b)} AS ${alias.group(i)}`)
  const outs = plan.outputs.map((o, i) => `${outputSql(read, o)} AS ${alias.output(i)}`)
  const cols = [...by, `${timeSql(plan, read.time)} AS ${alias.time}`, ...outs]
  if (plan.paging.tiebreak) cols.push(`${rowIdSql(scope)} AS ${ROW_ID}`)
  const keys = plan.groupBy.map((_, i) => alias.group(i))
  if (plan.bucket) keys.push(alias.time)
  const group = !plan.aggregated
    ? ''
    : `${keys.length ? ` GROUP BY ${keys.join(', ')}` : ''} HAVING count() > 0`
  const where = whereSql(scope, plan)
  const from = tableSql(scope, plan, tableRef)
  if (plan.rollup) {
    const rolled = rollupSql(scope, plan, from, where, timeSql(plan, scope.time))
    return `SELECT ${cols.join(', ')} FROM ${rolled}${group}`
  }
  return `SELECT ${cols.join(', ')} FROM ${from} WHERE ${where}${group}`
}

/** A non-NULL text telling series apart (NULL tags included; IN and JOIN never match NULL). */
function seriesKey(nBy: number): string {
  const part = (i: number) => {
    const v = `toString(${alias.group(i)})`
    return `ifNull(concat('V', toString(length(${v})), ':', ${v}), 'N')`
  }
  return `concat(${Array.from({ length: nBy }, (_, i) => part(i)).join(', ')}, '')`
}

function outerSql(inner: string, order: string, nBy: number, l: Limits, maxRows: number): string {
  const cap = maxRows + 1
  if (nBy === 0) {
    const limit = l.limit === null ? cap : Math.min(l.limit, cap)
    return `SELECT * FROM (${inner}) ORDER BY ${order} LIMIT ${l.offset}, ${limit}`
  }
  const bys = Array.from({ length: nBy }, (_, i) => `${alias.group(i)} ASC NULLS LAST`).join(', ')
  const keyed = `(SELECT *, ${seriesKey(nBy)} AS ${SERIES} FROM (${inner}))`
  const groups = Array.from({ length: nBy }, (_, i) => alias.group(i)).join(', ')
  let series = `SELECT ${SERIES} FROM ${keyed} GROUP BY ${SERIES}, ${groups} ORDER BY ${bys}`
  if (l.slimit !== null) series += ` LIMIT ${l.soffset}, ${l.slimit}`
  else if (l.soffset > 0) series += ` LIMIT ${l.soffset}, 18446744073709551615`
  const perSeries = l.limit === null ? '' : ` LIMIT ${l.offset + l.limit} BY ${SERIES}`
  return `SELECT *, 0 AS ${chIdent('__r')} FROM ${keyed} WHERE ${SERIES} IN (${series}) ORDER BY ${bys}, ${SERIES}, ${order}${perSeries} LIMIT ${cap}`
}

/** The plan with a BY query's row offset applied after the engine (no offset in `LIMIT n BY`). */
function offsetAfter(plan: QueryPlan): QueryPlan {
  const l = plan.limits
  if (!plan.groupBy.length || l.offset === 0 || plan.post.limits) return plan
  const post = {
    ...plan.post,
    limits: { limit: l.limit, offset: l.offset, slimit: null, soffset: 0 },
  }
  return { ...plan, post }
}

export function renderClickHouse(plan: QueryPlan, tableRef: TableRef): Rendered {
  const scope: Scope = { table: plan.source.info, params: new Params(), time: chIdent('time') }
  let order = orderSql(plan.order)
  if (plan.paging.tiebreak) order += `, ${ROW_ID} ${plan.paging.desc ? 'DESC' : 'ASC'}`
  const inner = innerSql(scope, plan, tableRef)
  const sql = outerSql(inner, order, plan.groupBy.length, plan.limits, plan.maxRows)
  return { sql, params: scope.params.list, plan: offsetAfter(plan) }
}
