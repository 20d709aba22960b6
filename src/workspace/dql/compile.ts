/**
 * DQL to SQL. One statement becomes one SQL query over the measurement's table; DuckDB does
 * the filtering, bucketing, aggregation, series ranking and limits, and JS only groups the
 * returned rows into series. Shape:
 *
 *   inner:  SELECT <BY tags> AS b0.., <time or bucket> AS time, <outputs> AS v0..
 *           FROM <table> WHERE <time range> AND <where> AND <conditions> [GROUP BY ALL]
 *   outer:  with BY: rank series (dense_rank over the tags) and rows within each series
 *           (row_number), keep SOFFSET/SLIMIT series and OFFSET/LIMIT rows per series;
 *           without BY: ORDER BY .. LIMIT .. OFFSET.
 *
 * Object namespaces (O, CO) read the newest state of each object (by `name`).
 */
import type { Query } from './ast.js'
import type { QueryOptions } from './options.js'
import { expandSelect, orderSql, outputs, type Output } from './select.js'
import { bad, nsLiteral, Params, ref, type Scope } from './sql.js'
import { resolveRange, type Range } from './time.js'
import { condition } from './where.js'
import type { TableInfo } from '../store/catalog.js'
import { ident, qualified, TIME_COLUMN } from '../store/names.js'
import { parseConditions } from './parser.js'
import { cursorSql, parseCursor, ROW_ID, type Cursor } from './search-after.js'

export interface Plan {
  sql: string
  params: Params['list']
  by: string[]
  columns: string[]
  range: Range
  /** Rows end with their row id (search-after.ts); the page's cursor is the full sort key. */
  rowId: boolean
}

export interface CompileInput {
  workspaceId: string
  table: string
  info: TableInfo
  query: Query
  opts: QueryOptions
  nowMs: number
  maxRows: number
}

/** Raw (unaggregated) queries return at most this many points per series unless told. */
export const DEFAULT_RAW_LIMIT = 1000
export const DEFAULT_SLIMIT = 20

/** How the query pages: its search_after cursor, its direction, and whether row ids break ties. */
interface Paging {
  cursor: Cursor | null
  desc: boolean
  rowId: boolean
}

function whereSql(scope: Scope, q: Query, o: QueryOptions, range: Range, p: Paging): string {
  const t = ident(TIME_COLUMN)
  const parts = [`${t} >= ${nsLiteral(range.startMs)}`]
  if (range.endMs !== null) parts.push(`${t} < ${nsLiteral(range.endMs)}`)
  if (q.where) parts.push(condition(scope, q.where))
  if (o.conditions) parts.push(`(${condition(scope, parseConditions(o.conditions))})`)
  const after = p.cursor && cursorSql(p.cursor, p.desc, p.rowId)
  if (after) parts.push(after)
  return parts.join(' AND ')
}

const isObjects = (q: Query) => q.category === 'object' || q.category === 'custom_object'

function fromSql(input: CompileInput, scope: Scope): string {
  const table = qualified(input.workspaceId, scope.table.phys)
  const objects = isObjects(input.query)
  const name = scope.table.byName.get('name')
  if (!objects || !name) return table
  return `(SELECT * FROM ${table} QUALIFY row_number() OVER (PARTITION BY ${ident(name.phys)} ORDER BY ${ident(TIME_COLUMN)} DESC) = 1)`
}

function innerSql(
  input: CompileInput,
  scope: Scope,
  outs: Output[],
  aggregated: boolean,
  range: Range,
  p: Paging,
): string {
  const q = input.query
  const t = ident(TIME_COLUMN)
  const by = q.by.map((b, i) => `${ref(scope, b)} AS ${ident(`b${i}`)}`)
  let time = t
  if (aggregated && range.intervalMs !== null) {
    const step = nsLiteral(range.intervalMs)
    time = `(${t} // ${step}) * ${step}`
    if (range.originMs !== null) {
      const origin = nsLiteral(range.originMs)
      time = `${origin} + ((${t} - ${origin}) // ${step}) * ${step}`
    }
  } else if (aggregated) time = `min(${t})`
  const cols = [...by, `${time} AS ${t}`, ...outs.map((o, i) => `${o.sql} AS ${ident(`v${i}`)}`)]
  if (p.rowId) cols.push(`rowid AS ${ident(ROW_ID)}`)
  const where = whereSql(scope, q, input.opts, range, p)
  const group = aggregated ? ' GROUP BY ALL HAVING count(*) > 0' : ''
  return `SELECT ${cols.join(', ')} FROM ${fromSql(input, scope)} WHERE ${where}${group}`
}

interface Limits {
  limit: number | null
  offset: number
  slimit: number | null
  soffset: number
}

function limits(q: Query, o: QueryOptions, aggregated: boolean): Limits {
  return {
    limit: o.limit ?? q.limit ?? (aggregated ? null : DEFAULT_RAW_LIMIT),
    offset: o.offset ?? q.offset ?? 0,
    slimit: o.slimit ?? q.slimit ?? (o.disableSlimit ? null : DEFAULT_SLIMIT),
    soffset: o.soffset ?? q.soffset ?? 0,
  }
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

export function compile(input: CompileInput): Plan {
  const q = input.query
  const o = input.opts
  const scope: Scope = { table: input.info, params: new Params() }
  const items = expandSelect(scope, q)
  if (o.disableMultipleField && items.length > 1)
    throw bad('disable_multiple_field allows one field only')
  const { list, aggregated } = outputs(scope, items)
  const range = resolveRange(q, o, input.nowMs)
  const orderItems = o.orderby ?? q.orderBy
  const timeFirst = orderItems.length === 0 || orderItems[0].column === TIME_COLUMN
  const desc = orderItems.length === 0 || (timeFirst && orderItems[0].desc)
  const cursor = parseCursor(o.searchAfter)
  const rowId =
    cursor !== null &&
    cursor.kind !== 'time' &&
    timeFirst &&
    !aggregated &&
    q.by.length === 0 &&
    !isObjects(q)
  let order = orderSql(orderItems, list, q.by)
  if (rowId) order += `, ${ident(ROW_ID)} ${desc ? 'DESC' : 'ASC'}`
  const inner = innerSql(input, scope, list, aggregated, range, { cursor, desc, rowId })
  const sql = outerSql(inner, order, q.by.length, limits(q, o, aggregated), input.maxRows)
  const columns = list.map((x) => x.name)
  return { sql, params: scope.params.list, by: q.by, columns, range, rowId }
}
