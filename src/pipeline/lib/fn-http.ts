/**
 * http_request(method, url, headers, body, prefix): a synchronous outbound call from inside a
 * script, answering `{status_code, body}` (keys prefixed by `prefix`), as the reference.
 *
 * Invariants: off unless `[pipeline] http_request_enable`; at most `http_request_max_calls`
 * calls per script run; the decode worker waits at most min(`http_request_timeout`, the
 * batch time limit) for a call (the sandbox cannot interrupt a host call, so this bounds how
 * far past its limit a run can go); a body over `http_request_max_bytes` is refused; internal
 * addresses are refused unless `http_request_allow_internal`. A refused, failed or timed-out
 * call answers nil. The call runs on one helper thread per decode worker, started when the
 * function is enabled, so the waiting thread never runs an event loop.
 */
import { Worker } from 'node:worker_threads'
import { workerEntry } from '../../shared/worker-file.js'
import { HELPER_THREAD_LIMITS } from '../../shared/heap-flags.js'
import { awaitReply, newReply, type HttpCall } from '../http/reply.js'
import type { CallCtx } from './context.js'
import { strArg, valArg } from './context.js'
import type { PlPoint } from './pl-point.js'
import type { LibFn } from './lib-fn.js'

export interface HttpRequestOptions {
  enable: boolean
  allowInternal: boolean
  timeoutMs: number
  maxBytes: number
  maxCalls: number
}

let opts: HttpRequestOptions = {
  enable: false,
  allowInternal: false,
  timeoutMs: 1000,
  maxBytes: 1 << 20,
  maxCalls: 10,
}
let helper: Worker | null = null

/** Applies the config (engine start); an enabled function gets its helper thread now. */
export function setHttpRequest(o: HttpRequestOptions): void {
  opts = o
  if (o.enable && !helper) {
    helper = new Worker(workerEntry('http-request'), {
      resourceLimits: HELPER_THREAD_LIMITS,
    })
    helper.unref()
    helper.on('error', () => (helper = null))
  }
}

function headersOf(v: unknown): Record<string, string> {
  const out: Record<string, string> = {}
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return out
  for (const [k, x] of Object.entries(v)) out[k] = String(x)
  return out
}

function request(c: CallCtx, p: PlPoint, a: unknown[]): Record<string, unknown> | null {
  if (!opts.enable || !helper) return null
  c.httpCalls = (c.httpCalls ?? 0) + 1
  if (c.httpCalls > opts.maxCalls) return null
  const reply = newReply(opts.maxBytes)
  const call: HttpCall = {
    method: String(valArg(p, a[0]) ?? 'GET').toUpperCase(),
    url: String(valArg(p, a[1]) ?? ''),
    headers: headersOf(valArg(p, a[2])),
    body: strArg(p, a[3]) ?? '',
    timeoutMs: Math.min(opts.timeoutMs, c.timeLimitMs ?? opts.timeoutMs),
    maxBytes: opts.maxBytes,
    allowInternal: opts.allowInternal,
    reply,
  }
  helper.postMessage(call)
  // A little past the helper's own timeout, so its abort (not this wait) ends a slow call.
  const r = awaitReply(reply, call.timeoutMs + 50)
  if (!r || r.status < 0) return null
  const prefix = String(valArg(p, a[4]) ?? '')
  return { [`${prefix}status_code`]: r.status, [`${prefix}body`]: r.text }
}

export const HTTP_FNS: Record<string, LibFn> = {
  http_request: { params: ['method', 'url', 'headers', 'body', 'prefix'], run: request },
}
