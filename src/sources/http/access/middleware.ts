/**
 * Access middleware, outermost first: CORS (`cors.ts`), the loopback-or-public check, the per client
 * and route rate limit, the request timeout (after the refusals, which need no timer), then the
 * per client limit of requests in flight.
 * A client either limit refuses is shed (`policy.refused`, `http/gate.ts`) until its Retry-After.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { FerryError } from '../../../errors.js'
import { formatMillis } from '../../../shared/duration.js'
import type { HttpEnv } from '../deps.js'
import { clip } from '../../../shared/clip.js'
import { clientOf } from './client.js'
import { finishedHeaders } from './cors.js'
import type { AccessPolicy } from './policy.js'

type Mw = MiddlewareHandler<HttpEnv>

/**
 * Past `[http_api] timeout` the request is answered 408 and its deadline marked passed; a write
 * that has not reached the buffer by then stores nothing (the write route checks the flag).
 * Per request: one timer and one promise (no AbortController, no race of two promises).
 */
export function timeoutMiddleware(policy: AccessPolicy): Mw {
  return (c, next) => {
    const ms = policy.timeoutMs
    const deadline = { aborted: false }
    c.set('signal', deadline)
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        deadline.aborted = true
        reject(new FerryError('requestTimeout', `timeout(${formatMillis(ms)})`))
      }, ms)
      next().then(
        () => (clearTimeout(timer), resolve()),
        (e: unknown) => (clearTimeout(timer), reject(e)),
      )
    })
  }
}

export function publicAccessMiddleware(policy: AccessPolicy): Mw {
  return async (c, next) => {
    if (!clientOf(c, policy.trusted).loopback && !policy.publicRoutes.has(c.req.path))
      throw new FerryError(
        'publicAccessDisabled',
        `api ${clip(c.req.path)} disabled from external IP, only loopback(localhost) allowed`,
      )
    await next()
  }
}

/** Per client, a bounded number of requests in flight (after the rate limit: cheap first). */
export function inFlightMiddleware(policy: AccessPolicy): Mw {
  return async (c, next) => {
    const ip = clientOf(c, policy.trusted).ip
    let release: () => void
    try {
      release = policy.inFlight.enter(ip)
    } catch (e) {
      if (e instanceof FerryError) e.retryAfter = policy.refused(c, ip, 1)
      throw e
    }
    try {
      await next()
    } finally {
      release()
    }
  }
}

/** The rate limit's headers (echoed values clipped: a 14 KB header must not come back twice). */
function rateHeaders(c: Context<HttpEnv>, limit: number, ip: string): [string, string][] {
  const out: [string, string][] = [
    ['X-Rate-Limit-Limit', limit.toFixed(2)],
    ['X-Rate-Limit-Duration', '1'],
    ['X-Rate-Limit-Request-Remote-Addr', clip(ip)],
  ]
  const fwd = c.req.header('x-forwarded-for')
  if (fwd) out.push(['X-Rate-Limit-Request-Forwarded-For', clip(fwd)])
  return out
}

/**
 * Its headers go on every answer: on the finished one when the request passes (`cors.ts`), and
 * on its own 429 through the context's answer, which the error's answer inherits.
 */
export function rateLimitMiddleware(policy: AccessPolicy): Mw {
  return async (c, next) => {
    const limiter = policy.limiter
    if (!limiter.enabled) return next()
    const client = clientOf(c, policy.trusted)
    const headers = rateHeaders(c, limiter.limit, client.ip)
    const path = clip(c.req.path)
    if (!limiter.take(`${client.ip} ${path}`)) {
      for (const [name, value] of headers) c.res.headers.set(name, value)
      throw new FerryError(
        'reachMaxAPILimit',
        `more than ${limiter.limit} requests per second to ${path} from ${client.ip}`,
        { retryAfter: policy.refused(c, client.ip, 1) },
      )
    }
    await next()
    const answer = finishedHeaders(c)
    for (const [name, value] of headers) answer.set(name, value)
  }
}
