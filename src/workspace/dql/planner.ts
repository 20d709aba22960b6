/**
 * DQL to an engine-neutral plan (plan.ts). Everything the query means is decided here: `*`
 * expands to every column of the table except the BY tags; outputs come from outputs.ts (and
 * top-bottom.ts), named by their alias, else the expression as written (`avg(usage_idle)`);
 * ORDER BY refers to time, an output (by alias or expression) or a BY tag; options win over the
 * statement (0 means unset); raw queries return at most DEFAULT_RAW_LIMIT points per series and
 * DEFAULT_SLIMIT series unless told. Object namespaces (O, CO) read the newest state of each
 * object (by `name`). Only the default storage index exists.
 */
import type { Expr, OrderItem, Query, SelectItem } from './ast.js'
import type { QueryOptions } from './options.js'
import { parseConditions } from './parser.js'
import type {
  Limits,
  OrderKey,
  Paging,
  PlanOrder,
  PlanSource,
  QueryPlan,
  UnionMember,
} from './plan.js'
import { parseCursor } from './search-after.js'
import { resolveRange } from './time.js'
import { bad } from './invalid.js'
import { highlightRules } from './highlight.js'
import { buildOutputs, type Outputs } from './outputs.js'
import { outputIndex, planPost } from './post-plan.js'
import { planRollup } from './rollup.js'
import { topBottom, type TopBottom } from './top-bottom.js'
import type { TableInfo } from '../store/catalog.js'
import { TIME_COLUMN } from '../store/names.js'

export interface PlanInput {
  workspaceId: string
  table: string
  info: TableInfo
  /** Several tables read as one (sources.ts), or null. */
  union?: UnionMember[] | null
  query: Query
  opts: QueryOptions
  nowMs: number
  maxRows: number
}

export const DEFAULT_RAW_LIMIT = 1000
export const DEFAULT_SLIMIT = 20
export const DEFAULT_INDEX = 'default'

const isObjects = (q: Query) => q.category === 'object' || q.category === 'custom_object'

function expandSelect(info: TableInfo, q: Query): SelectItem[] {
  const items = q.select ?? [{ expr: { kind: 'field', name: '*', pos: 0 }, alias: null }]
  return items.flatMap((it): SelectItem[] =>
    it.expr.kind === 'field' && it.expr.name === '*'
      ? info.columns
          .filter((c) => !q.by.includes(c.name))
          .map((c) => ({ expr: { kind: 'field', name: c.name, pos: it.expr.pos }, alias: null }))
      : [it],
  )
}

function orderKey(column: string, outs: Outputs, by: string[]): OrderKey {
  if (column === TIME_COLUMN) return { kind: 'time' }
  const out = outputIndex(outs, column)
  if (out >= 0) return { kind: 'output', index: out }
  if (by.includes(column)) return { kind: 'group', index: by.indexOf(column) }
  throw bad(`ORDER BY ${column}: order by time, a selected expression, its alias or a BY tag`)
}

function order(items: OrderItem[], outs: Outputs, by: string[]): PlanOrder[] {
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

const and = (a: Expr | null, b: Expr): Expr => (a ? { op: 'and', left: a, right: b } : b)

/** The select list as outputs, with top()/bottom() rewritten (top-bottom.ts). */
function selectOutputs(input: PlanInput): { outs: Outputs; tb: TopBottom | null } {
  const { query: q, opts: o } = input
  if (q.index !== null && q.index !== DEFAULT_INDEX)
    throw bad(`index ${JSON.stringify(q.index)}: this workspace has the default index only`)
  let items = expandSelect(input.info, q)
  if (o.disableMultipleField && items.length > 1)
    throw bad('disable_multiple_field allows one field only')
  const tb = topBottom(items)
  if (tb) items = tb.items
  return { outs: buildOutputs(items), tb }
}

function orderItemsOf(o: QueryOptions, q: Query, outs: Outputs, tb: TopBottom | null) {
  if (!tb) return o.orderby ?? q.orderBy
  return [
    { column: outs.list[tb.output].name, desc: tb.desc },
    { column: TIME_COLUMN, desc: true },
  ]
}

function paging(o: QueryOptions, q: Query, orderItems: OrderItem[], aggregated: boolean): Paging {
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
  return { cursor, desc, tiebreak }
}

function source(input: PlanInput): PlanSource {
  const q = input.query
  return {
    workspaceId: input.workspaceId,
    category: q.category,
    table: input.table,
    info: input.info,
    latestBy: isObjects(q) && input.info.byName.has('name') ? 'name' : null,
    union: input.union ?? null,
  }
}

export function planQuery(input: PlanInput): QueryPlan {
  const { query: q, opts: o } = input
  const { outs, tb } = selectOutputs(input)
  const { aggregated } = outs
  const range = resolveRange(q, o, input.nowMs)
  const orderItems = orderItemsOf(o, q, outs, tb)
  const sorted = order(orderItems, outs, q.by)
  if (outs.transforms.length && !sorted.every((s) => s.key.kind === 'time'))
    throw bad('series functions (derivative, difference, ...) answer in time order only')
  const conditions = o.conditions === null ? null : parseConditions(o.conditions)
  const cut = limits(q, o, aggregated)
  if (tb) cut.limit = Math.min(cut.limit ?? tb.n, tb.n)
  const { post, engineLimits } = planPost(outs, q.having, q.sorderBy, cut)
  return {
    source: source(input),
    range,
    where: tb ? and(q.where, tb.notNull) : q.where,
    conditions,
    outputs: outs.list,
    aggregated,
    bucket:
      aggregated && range.intervalMs !== null
        ? { stepMs: range.intervalMs, originMs: range.originMs }
        : null,
    rollup: planRollup(q, input.info, aggregated),
    groupBy: q.by,
    order: sorted,
    paging: paging(o, q, orderItems, aggregated),
    limits: engineLimits,
    highlight: o.highlight ? highlightRules(outs.list, [q.where, conditions]) : [],
    maxRows: input.maxRows,
    post,
  }
}
