/**
 * Answers a `/v1/query/raw` body: each query is parsed, compiled for the engine's dialect and
 * run through the StorageEngine (never a database directly); rows come back grouped into series
 * `{name, tags?, columns: ["time", ...], values: [[ms, ...], ...]}`.
 */
import { FerryError } from '../../errors.js'
import type { Row, StorageEngine } from '../store/engine.js'
import { compile, type Plan } from './compile.js'
import { parseQueryOptions, type QueryOptions } from './options.js'
import type { Query } from './ast.js'
import { parseQuery } from './parser.js'
import { plain } from '../store/values.js'
import { nextCursor } from './search-after.js'
import { highlightRows } from './highlight.js'
import { runPost } from './post.js'
import { resolveSources } from './sources.js'
import { isShow, runShow } from './show.js'
import { applyOuter, isOuter, parseOuter } from './outer.js'

export interface Series {
  name: string
  tags?: Record<string, string | null>
  columns: string[]
  values: unknown[][]
  /** With `highlight`: per row of `values`, each pattern-tested column's marked value. */
  highlight?: Record<string, string[]>[]
}

export interface QueryResult {
  series: Series[]
  cost: string
  raw_query?: string
  search_after?: unknown[]
  truncated?: boolean
}

export interface QueryContext {
  engine: Pick<StorageEngine, 'catalog' | 'dialect' | 'query' | 'tableRef'>
  workspaceId: string
  maxRows: number
  timeoutMs: number
  /** The clock for relative time ranges; tests fix it. */
  now?: () => number
}

function toSeries(name: string, plan: Plan, rows: Row[]): Series[] {
  const nBy = plan.by.length
  const series: Series[] = []
  let current: Series | null = null
  let rank: unknown = undefined
  for (const row of rows) {
    const s = nBy ? row[row.length - 2] : 1
    if (!current || s !== rank) {
      current = { name, columns: ['time', ...plan.columns], values: [] }
      if (nBy)
        current.tags = Object.fromEntries(plan.by.map((b, i) => [b, row[i] as string | null]))
      series.push(current)
      rank = s
    }
    const time = Number((row[nBy] as bigint) / 1_000_000n)
    current.values.push([time, ...plan.columns.map((_, i) => plain(row[nBy + 1 + i]))])
  }
  return series
}

export interface Planned {
  opts: QueryOptions
  query: Query
  plan: Plan
  /** False when the measurement was never written: nothing to run. */
  exists: boolean
}

/** Parses and compiles one query of a request; errors name the query's index. */
export function planQuery(ctx: QueryContext, raw: unknown, index: number): Planned {
  const opts = parseQueryOptions(raw, index)
  let query: Query
  try {
    query = parseQuery(opts.query)
  } catch (e) {
    if (e instanceof FerryError) throw new FerryError(e.code, `queries[${index}]: ${e.message}`)
    throw e
  }
  const src = resolveSources(ctx.engine.catalog, ctx.workspaceId, query)
  const plan = compile(ctx.engine, {
    workspaceId: ctx.workspaceId,
    table: src.table,
    info: src.info,
    union: src.union,
    query,
    opts,
    nowMs: (ctx.now ?? Date.now)(),
    maxRows: ctx.maxRows,
  })
  return { opts, query, plan, exists: src.exists }
}

async function runOne(
  ctx: QueryContext,
  raw: unknown,
  index: number,
  explain: boolean,
): Promise<QueryResult> {
  const started = performance.now()
  const special = await showOrOuter(ctx, raw, index)
  if (special) return { series: special, cost: `${(performance.now() - started).toFixed(2)}ms` }
  const { opts, query, plan, exists } = planQuery(ctx, raw, index)
  let rows: Row[] = []
  if (exists) {
    try {
      rows = (await ctx.engine.query(plan.sql, plan.params, ctx.timeoutMs)).rows
    } catch (e) {
      if (e instanceof FerryError && e.code === 'queryInvalid')
        throw new FerryError('queryInvalid', `queries[${index}]: ${e.message}`)
      throw e
    }
  }
  const truncated = rows.length > ctx.maxRows
  const answered = toSeries(query.source, plan, truncated ? rows.slice(0, ctx.maxRows) : rows)
  const series = runPost(plan.query, answered)
  const rules = plan.query.highlight
  if (rules.length) for (const s of series) s.highlight = highlightRows(rules, s.values)
  const result: QueryResult = { series, cost: `${(performance.now() - started).toFixed(2)}ms` }
  if (truncated) result.truncated = true
  if (explain) result.raw_query = plan.sql
  if (opts.searchAfter) result.search_after = pageCursor(plan, answered, rows)

  return result
}

/** `show_*()` answers and outer functions (`difference(dql='..').cumsum()`), or null. */
async function showOrOuter(ctx: QueryContext, raw: unknown, index: number) {
  const text = parseQueryOptions(raw, index).query
  const sub = async (query: string) =>
    (await runOne(ctx, { ...(raw as object), query }, index, false)).series
  try {
    if (isOuter(text) && !isShow(text)) {
      const { dql, steps } = parseOuter(text)
      return applyOuter(await sub(dql), steps)
    }
    if (!isShow(text)) return null
    const distinct = async (q: string) => (await sub(q)).flatMap((s) => s.values.map((v) => v[1]))
    return await runShow(ctx.engine.catalog, ctx.workspaceId, text, distinct)
  } catch (e) {
    if (e instanceof FerryError && !e.message.startsWith('queries['))
      throw new FerryError(e.code, `queries[${index}]: ${e.message}`)
    throw e
  }
}

/** The search_after list to send back for the next page (search-after.ts). */
function pageCursor(plan: Plan, series: Series[], rows: Row[]): unknown[] {
  const last = series.at(-1)?.values.at(-1)
  if (!last) return []
  if (!plan.rowId) return [last[0]]
  const row = rows[series.reduce((n, s) => n + s.values.length, 0) - 1]
  return nextCursor(row[0] as bigint, row[1 + plan.columns.length])
}

export async function runQueries(ctx: QueryContext, body: unknown): Promise<QueryResult[]> {
  if (
    typeof body !== 'object' ||
    body === null ||
    !Array.isArray((body as { queries?: unknown }).queries)
  )
    throw new FerryError(
      'invalidParameter',
      'the body must be {"queries": [{"query": "..."}, ...]}',
    )
  const b = body as { queries: unknown[]; echo_explain?: unknown }
  if (!b.queries.length) throw new FerryError('invalidParameter', 'queries is empty')
  const out: QueryResult[] = []
  for (let i = 0; i < b.queries.length; i++)
    out.push(await runOne(ctx, b.queries[i], i, b.echo_explain === true))
  return out
}
