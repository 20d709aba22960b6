/**
 * The page's data calls, all to `/ui/api/...` on this origin: the session cookie goes along and
 * the server adds the key, which the page never sees. Answers are in the Open API envelope; a
 * failure becomes an ApiError with its code and message, and an ended session goes back to the
 * login form.
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly errorCode: string,
    readonly status: number,
  ) {
    super(message)
  }
  /** The character position a `QueryInvalid` message names, or null. */
  get position(): number | null {
    const m = /at position (\d+)/.exec(this.message)
    return m ? Number(m[1]) : null
  }
}

interface Envelope<T> {
  content: T
  pageInfo?: { count: number; totalCount: number }
  errorCode: string
  message: string
  success: boolean
}

export async function call<T>(path: string, body?: unknown, method?: string): Promise<T> {
  const init: RequestInit = { method: method ?? (body === undefined ? 'GET' : 'POST') }
  // The service takes changes only as JSON (a page on another origin cannot send that).
  if (init.method !== 'GET') init.headers = { 'Content-Type': 'application/json' }
  if (body !== undefined) init.body = JSON.stringify(body)
  const res = await fetch(`/ui/api/${path}`, init)
  const env = (await res.json().catch(() => null)) as Envelope<T> | null
  if (!env) throw new ApiError(`HTTP ${res.status}`, 'InternalError', res.status)
  if (env.errorCode === 'InvalidApiKey') location.assign('/ui/login')
  if (!env.success) throw new ApiError(env.message, env.errorCode, res.status)
  return env.content
}

export interface Series {
  name: string
  tags?: Record<string, string | null>
  columns: string[]
  values: unknown[][]
}

export interface QueryResult {
  series: Series[]
  raw_query?: string
  search_after?: unknown[]
  truncated?: boolean
}

export type QueryOptions = Record<string, unknown>

/** Runs one DQL query. */
export async function dql(query: string, opts: QueryOptions = {}, explain = false) {
  const body = { queries: [{ query, ...opts }], echo_explain: explain }
  const results = await call<QueryResult[]>('query', body)
  return results[0]
}

/** A DQL string literal of `s`, quotes and backslashes escaped. */
export { quote } from './dql-text.js'

export type Row = Record<string, unknown>

/** The rows of every series as objects keyed by column. */
export function rowsOf(series: Series[]): Row[] {
  return series.flatMap((s) =>
    s.values.map((v) => Object.fromEntries(s.columns.map((c, i) => [c, v[i]]))),
  )
}
