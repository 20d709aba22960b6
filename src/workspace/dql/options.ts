/**
 * The per-query options of a `/v1/query/raw` request (agent spec 4.16), validated into one
 * shape. Unknown fields are ignored, as the reference agent drops them.
 */
import { FerryError } from '../../errors.js'
import { parseMillis } from '../../shared/duration.js'

export interface QueryOptions {
  query: string
  conditions: string | null
  timeRange: [number] | [number, number] | null
  maxDurationMs: number
  maxPoint: number | null
  limit: number | null
  offset: number | null
  slimit: number | null
  soffset: number | null
  disableSlimit: boolean
  orderby: { column: string; desc: boolean }[] | null
  searchAfter: unknown[] | null
  disableMultipleField: boolean
  /** Mark the matches of pattern filters in the values (highlight.ts). */
  highlight: boolean
}

export const DEFAULT_MAX_DURATION_MS = 365 * 86_400_000

const bad = (message: string) => new FerryError('invalidParameter', message)

function int(o: Record<string, unknown>, key: string, where: string): number | null {
  const v = o[key]
  if (v === undefined || v === null) return null
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
    throw bad(`${where}.${key}: expected a non-negative integer`)
  return v
}

/**
 * Row and series limits: the reference agent forwards every option of its query struct, unset
 * ones as 0, so 0 means "not given" (the statement's own LIMIT or the default applies).
 */
function count(o: Record<string, unknown>, key: string, where: string): number | null {
  const v = int(o, key, where)
  return v === 0 ? null : v
}

function timeRange(v: unknown, where: string): QueryOptions['timeRange'] {
  if (v === undefined || v === null) return null
  if (
    !Array.isArray(v) ||
    v.length < 1 ||
    v.length > 2 ||
    !v.every((x) => typeof x === 'number' && Number.isFinite(x))
  )
    throw bad(`${where}.time_range: expected [start_ms] or [start_ms, end_ms]`)
  if (v.length === 2 && v[1] < v[0]) throw bad(`${where}.time_range: the end is before the start`)
  return v as [number] | [number, number]
}

function orderby(v: unknown, where: string): QueryOptions['orderby'] {
  if (v === undefined || v === null) return null
  const err = bad(`${where}.orderby: expected [{"column": "asc" | "desc"}, ...]`)
  if (!Array.isArray(v)) throw err
  return v.map((entry) => {
    const pairs = typeof entry === 'object' && entry !== null ? Object.entries(entry as object) : []
    if (pairs.length !== 1 || !['asc', 'desc'].includes(String(pairs[0][1]).toLowerCase()))
      throw err
    return { column: pairs[0][0], desc: String(pairs[0][1]).toLowerCase() === 'desc' }
  })
}

function maxDuration(v: unknown, where: string): number {
  if (v === undefined || v === null || v === '') return DEFAULT_MAX_DURATION_MS
  const ms = parseMillis(String(v))
  if (!ms || ms <= 0) throw bad(`${where}.max_duration: expected a duration such as 1h, 7d or 1y`)
  return ms
}

export function parseQueryOptions(raw: unknown, index: number): QueryOptions {
  const where = `queries[${index}]`
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw bad(`${where}: expected an object`)
  const o = raw as Record<string, unknown>
  if (typeof o.query !== 'string' || !o.query.trim())
    throw bad(`${where}.query: a DQL statement is required`)
  if (o.conditions !== undefined && o.conditions !== null && typeof o.conditions !== 'string')
    throw bad(`${where}.conditions: expected a string`)
  if (o.search_after !== undefined && o.search_after !== null && !Array.isArray(o.search_after))
    throw bad(`${where}.search_after: expected an array`)
  const maxPoint = int(o, 'max_point', where)
  return {
    query: o.query,
    conditions: typeof o.conditions === 'string' && o.conditions.trim() ? o.conditions : null,
    timeRange: timeRange(o.time_range, where),
    maxDurationMs: maxDuration(o.max_duration, where),
    maxPoint: maxPoint === 0 ? null : maxPoint,
    limit: count(o, 'limit', where),
    offset: count(o, 'offset', where),
    slimit: count(o, 'slimit', where),
    soffset: count(o, 'soffset', where),
    disableSlimit: o.disable_slimit === true,
    orderby: orderby(o.orderby, where),
    searchAfter: Array.isArray(o.search_after) ? o.search_after : null,
    disableMultipleField: o.disable_multiple_field === true,
    highlight: o.highlight === true,
  }
}
