/**
 * The HTTP dial test: the request (following redirects only when asked, each hop through the
 * guarded lookup), the post script, the checks and the reference's tags and fields.
 */
import { compileOpts } from '../opts.js'
import { applyOutcome, decide } from '../rule.js'
import { runPostScript, type PostScriptResult } from '../post-script.js'
import type { NetGuard } from '../guard.js'
import type { DialResult } from '../types.js'
import { parseGoDuration } from '../duration.js'
import { BODY_TYPES } from './body.js'
import { checkHttp } from './checks.js'
import { exchange, type Exchange, type HopRequest } from './exchange.js'
import { headerMap, httpMessage } from './message.js'
import { hopRequest } from './request.js'
import type { HttpTask } from './types.js'

const MAX_REDIRECTS = 10
const REDIRECTS = new Set([301, 302, 303, 307, 308])

/** The reference's task check: throws the text it reports after `task check failed: `. */
export function checkHttpTask(t: HttpTask): void {
  const type = t.advance_options?.request_body?.body_type ?? ''
  if (!BODY_TYPES.has(type)) throw new Error(`invalid body type: \`${type}'`)
  if (!t.success_when?.length && !t.post_script) throw new Error('no any check rule')
  for (const c of t.success_when ?? []) {
    compileOpts(c.body)
    compileOpts(c.status_code)
    for (const opts of Object.values(c.header ?? {})) compileOpts(opts)
    if (c.response_time) parseGoDuration(c.response_time)
  }
  if (t.advance_options?.request_timeout) parseGoDuration(t.advance_options.request_timeout)
}

/** The next hop of a redirect, or null when the response is final. */
function nextHop(r: HopRequest, x: Exchange, follow: boolean): HopRequest | null {
  const location = x.headers.location
  if (!follow || !REDIRECTS.has(x.status) || !location) return null
  const keepsMethod = x.status === 307 || x.status === 308
  return {
    ...r,
    url: new URL(location, r.url),
    method: keepsMethod || r.method === 'HEAD' ? r.method : 'GET',
    body: keepsMethod ? r.body : null,
  }
}

async function send(r: HopRequest, follow: boolean, guard: NetGuard): Promise<Exchange> {
  const deadline = performance.now() + r.timeoutMs
  for (let hop = 0; ; hop++) {
    const x = await exchange({ ...r, timeoutMs: Math.max(1, deadline - performance.now()) }, guard)
    const next = nextHop(r, x, follow)
    if (!next) return x
    if (hop >= MAX_REDIRECTS) throw new Error(`stopped after ${MAX_REDIRECTS} redirects`)
    r = next
  }
}

export interface HttpRun {
  result: DialResult
  post: PostScriptResult | null
}

export async function runHttp(
  t: HttpTask,
  guard: NetGuard,
  userAgent: string,
  vars: Record<string, unknown> = {},
): Promise<HttpRun> {
  const started = process.hrtime.bigint()
  let reqError = ''
  let x: Exchange | null = null
  let req: HopRequest | null = null
  try {
    req = hopRequest(t, userAgent)
    x = await send(req, t.advance_options?.request_options?.follow_redirect === true, guard)
  } catch (e) {
    reqError = (e as Error).message
  }
  const costNs = process.hrtime.bigint() - started
  let post: PostScriptResult | null = null
  if (x && t.post_script) {
    try {
      post = await runPostScript(
        t.post_script,
        { status_code: x.status, header: headerMap(x), body: x.body.toString('utf8') },
        vars,
      )
    } catch (e) {
      reqError = (e as Error).message
    }
  }
  const outcome = decide(
    checkHttp(t.success_when ?? [], x, costNs, post),
    reqError,
    t.success_when_logic,
  )
  return { result: httpResult(t, x, req, costNs, outcome, post), post }
}

/** What an answer adds: its status and the time of each phase. */
function addExchange(x: Exchange, tags: Record<string, string>, fields: Record<string, unknown>) {
  fields.status_code = x.status
  tags.status_code_string = `${x.status} ${x.statusText}`
  tags.status_code_class = `${Math.floor(x.status / 100)}xx`
  Object.assign(fields, {
    response_dns: x.timings.dns,
    response_connection: x.timings.connection,
    response_ssl: x.timings.ssl,
    response_ttfb: x.timings.ttfb,
    response_download: x.timings.download,
  })
}

function httpResult(
  t: HttpTask,
  x: Exchange | null,
  req: HopRequest | null,
  costNs: bigint,
  outcome: ReturnType<typeof decide>,
  post: PostScriptResult | null,
): DialResult {
  const tags: Record<string, string> = {
    name: t.name ?? '',
    url: t.url ?? '',
    method: req?.method ?? (t.method || 'GET'),
    dest_ip: x?.destIp ?? '',
    proto: x?.proto ?? 'HTTP/1.1',
  }
  const fields: Record<string, unknown> = {
    response_time: Number(costNs / 1000n),
    response_body_size: x?.body.length ?? 0,
  }
  if (x) addExchange(x, tags, fields)
  Object.assign(tags, t.tags ?? {})
  applyOutcome(outcome, tags, fields)
  fields.message = httpMessage({
    body: t.advance_options?.request_body,
    headers: req?.headers ?? {},
    status: tags.status,
    failReason: outcome.failReason,
    response: x,
    notSave: t.advance_options?.secret?.not_save === true,
  })
  return { tags, fields, ...(post ? { postVars: post.vars } : {}) }
}
