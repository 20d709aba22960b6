/**
 * DQL to an engine-neutral plan (plan.ts). Everything the query means is decided here: `*`
 * expands to every column of the table except the BY tags; aggregates and plain fields cannot
 * be mixed; outputs are named by their alias, else the field, else the call as written
 * (`avg(usage_idle)`); ORDER BY refers to time, an output or a BY tag; options win over the
 * statement (0 means unset); raw queries return at most DEFAULT_RAW_LIMIT points per series and
 * DEFAULT_SLIMIT series unless told. Object namespaces (O, CO) read the newest state of each
 * object (by `name`).
 */
import type { OrderItem, Query, SelectItem } from './ast.js'
import type { QueryOptions } from './options.js'
import { parseConditions } from './parser.js'
import type { Limits, OrderKey, PlanOrder, PlanOutput, QueryPlan } from './plan.js'
import { parseCursor } from './search-after.js'
import { resolveRange } from './time.js'
import { bad } from './invalid.js'
import { highlightRules } from './highlight.js'
import type { TableInfo } from '../store/catalog.js'
import { TIME_COLUMN } from '../store/names.js'

export interface PlanInput {
  workspaceId: string
  table: string
  info: TableInfo
  query: Query
  opts: QueryOptions
  nowMs: number
  maxRows: number
}

export const DEFAULT_RAW_LIMIT = 1000
export const DEFAULT_SLIMIT = 20

const isObjects = (q: Query) => q.category === 'object' || q.category === 'custom_object'

function expandSelect(info: TableInfo, q: Query): SelectItem[] {
  const items = q.select ?? [{ kind: 'column', name: '*', alias: null }]
  return items.flatMap((it): SelectItem[] =>
    it.kind === 'column' && it.name === '*'
      ? info.columns
          .filter((c) => !q.by.includes(c.name))
          .map((c) => ({ kind: 'column', name: c.name, alias: null }))
      : [it],
  )
}

function outputs(items: SelectItem[]): { list: PlanOutput[]; aggregated: boolean } {
  const aggregated = items.some((it) => it.kind === 'func')
  if (aggregated && items.some((it) => it.kind === 'column'))
    throw bad('aggregate functions and plain fields cannot be mixed in one select list')
  const list = items.map((it): PlanOutput => {
    if (it.kind === 'column') return { name: it.alias ?? it.name, kind: 'column', column: it.name }
    if (it.arg === '*' && it.func !== 'count')
      throw bad(`${it.func}(*) is not allowed; only count(*)`)
    return {
      name: it.alias ?? `${it.func}(${it.arg})`,
      kind: 'aggregate',
      func: it.func,
      column: it.arg,
    }
  })
  return { list, aggregated }
}

function orderKey(column: string, outs: PlanOutput[], by: string[]): OrderKey {
  if (column === TIME_COLUMN) return { kind: 'time' }
  const out = outs.findIndex((x) => x.name === column)
  if (out >= 0) return { kind: 'output', index: out }
  if (by.includes(column)) return { kind: 'group', index: by.indexOf(column) }
  throw bad(`ORDER BY ${column}: order by time, a selected column or a BY tag`)
}

function order(items: OrderItem[], outs: PlanOutput[], by: string[]): PlanOrder[] {
  const list = items.length ? items : [{ column: TIME_COLUMN, desc: true }]
  return list.map((o) => ({ key: orderKey(o.column, outs, by), desc: o.desc }))
}

function limits(q: Query, o: QueryOptions, aggregated: boolean): Limits {
  return {
    limit: o.limit ?? q.limit ?? (aggregated ? null : DEFAULT_RAW_LIMIT),
    offset: o.offset ?? q.offset ?? 0,
    slimit: o.slimit ?? q.slimit ?? (o.disableSlimit ? null : DEFAULT_SLIMIT),
    soffset: o.soffset ?? q.soffset ?? 0,
  }
}

export function planQuery(input: PlanInput): QueryPlan {
  const { query: q, opts: o } = input
  const items = expandSelect(input.info, q)
  if (o.disableMultipleField && items.length > 1)
    throw bad('disable_multiple_field allows one field only')
  const { list, aggregated } = outputs(items)
  const range = resolveRange(q, o, input.nowMs)
  const orderItems = o.orderby ?? q.orderBy
  const timeFirst = orderItems.length === 0 || orderItems[0].column === TIME_COLUMN
  const desc = orderItems.length === 0 || (timeFirst && orderItems[0].desc)
  const cursor = parseCursor(o.searchAfter)
  // A unique tiebreaker exists for plain rows in time order; other queries page by time alone.
  const tiebreak =
    cursor !== null &&
    cursor.kind !== 'time' &&
    timeFirst &&
    !aggregated &&
    q.by.length === 0 &&
    !isObjects(q)
  const sorted = order(orderItems, list, q.by)
  const conditions = o.conditions === null ? null : parseConditions(o.conditions)
  return {
    source: {
      workspaceId: input.workspaceId,
      category: q.category,
      table: input.table,
      info: input.info,
      latestBy: isObjects(q) && input.info.byName.has('name') ? 'name' : null,
    },
    range,
    where: q.where,
    conditions,
    outputs: list,
    aggregated,
    bucket:
      aggregated && range.intervalMs !== null
        ? { stepMs: range.intervalMs, originMs: range.originMs }
        : null,
    groupBy: q.by,
    order: sorted,
    paging: { cursor, desc, tiebreak },
    limits: limits(q, o, aggregated),
    highlight: o.highlight ? highlightRules(list, [q.where, conditions]) : [],
    maxRows: input.maxRows,
  }
}
