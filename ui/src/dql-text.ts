/**
 * The DQL text the pages write: quoted literals, the automatic interval, the logs list's and
 * histogram's queries. No DOM here, so the unit tests run it under Node.
 */
import { interval } from './time.js'

/** A DQL string literal. */
export const quote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`

const AGGREGATE = /\(\s*(avg|min|max|sum|count|last|first)\(/i

/**
 * An aggregate query gets the automatic interval for the range (by name, or its span in ms)
 * unless it sets one: with no time clause `[::interval]` is added before any BY, and a clause
 * without an interval (`[1h]`, `[1h:]`, `[start:end]`) gets it as its third part. Without it
 * `[1h]` is one bucket: one dot. `points` is the buckets aimed at (fewer for bars).
 */
export function withInterval(query: string, range: string | number, points = 300): string {
  if (!AGGREGATE.test(query)) return query
  const clause = /\[([^\]:]*)(?::([^\]:]*))?(?::([^\]]*))?\]/.exec(query)
  if (clause) {
    if (clause[3]?.trim()) return query
    const [start, end = ''] = [clause[1], clause[2]]
    const at = clause.index
    return `${query.slice(0, at)}[${start}:${end}:${interval(range, points)}]${query.slice(at + clause[0].length)}`
  }
  const by = /\s(BY|ORDER BY|LIMIT|SLIMIT)\s/i.exec(query)
  const at = by ? by.index : query.length
  return `${query.slice(0, at)} [::${interval(range, points)}]${query.slice(at)}`
}

/** A name as DQL reads it: bare when it is an identifier, else in backticks. */
export const ident = (name: string) =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `\`${name.replace(/`/g, '')}\``

/** The DQL for the filters; empty filters are left out. `fields` are more `key = value`s. */
export function logQuery(
  source: string,
  f: {
    status: string
    service: string
    text: string
    trace_id?: string
    fields?: [string, string][]
  },
) {
  const where: string[] = []
  if (f.trace_id) where.push(`trace_id = ${quote(f.trace_id)}`)
  if (f.status) where.push(`status = ${quote(f.status)}`)
  if (f.service) where.push(`service = ${quote(f.service)}`)
  for (const [k, v] of f.fields ?? []) where.push(`${ident(k)} = ${quote(v)}`)
  if (f.text) where.push(`message = match(${quote(f.text)})`)
  return `L::${ident(source)}${where.length ? ` {${where.join(', ')}}` : ''}`
}

/** About 60 bars over the range, at least a second each. */
export function bucketMs(range: [number, number]): number {
  return Math.max(1000, Math.ceil((range[1] - range[0]) / 60 / 1000) * 1000)
}

/** `L::name {where}` split into `L::name` and ` {where}`, or null for another shape. */
const splitLogQuery = (q: string) => /^(L::(?:`[^`]*`|[A-Za-z0-9_]+))(.*)$/.exec(q)

/** `L::name {where}` as a count per status: `L::name:(count(*)) {where} [::Ns] BY status`. */
export function histogramQuery(logQuery: string, range: [number, number]): string {
  const m = splitLogQuery(logQuery)
  if (!m) return logQuery
  return `${m[1]}:(count(*))${m[2]} [::${bucketMs(range) / 1000}s] BY status`
}

/** The namespace a query reads (`M` in `M::cpu:(...)`), for the units of its columns. */
export const namespaceOf = (q: string) => /^\s*([A-Za-z]+)::/.exec(q)?.[1]?.toUpperCase() ?? 'M'

/** The `top` most frequent values of `field` among the rows of `L::name {where}`. */
export function topValuesQuery(logQuery: string, field: string, top: number): string {
  const m = splitLogQuery(logQuery)
  if (!m) return logQuery
  return `${m[1]}:(count(*))${m[2]} BY ${ident(field)} SORDER BY count(*) DESC SLIMIT ${top}`
}
