/**
 * CORS: a preflight (OPTIONS) is answered 204 by Hono's middleware before any check, as
 * browsers send preflights without credentials. Every other answer gets
 * `Access-Control-Allow-Origin` (when the origin is allowed), `-Allow-Credentials: true` and
 * `Vary: Origin`, the same headers Hono's middleware gives it.
 *
 * Why not Hono's middleware for every request: it sets its headers on the answer before the
 * route has made it, so each answer is rebuilt (and turned into a full web Response) two or
 * three times. Here the headers are set once, on the finished answer (`finishedHeaders`, which
 * the rate limit's headers use too). An answer without a body (`emptyAnswer`, the write route's
 * 200) takes them in place; any other answer is rebuilt once the way Hono's middleware rebuilt
 * it, so its content type and framing stay as they were.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { cors } from 'hono/cors'
import type { HttpEnv } from '../deps.js'
import type { AccessPolicy } from './policy.js'

/** An answer with status only (no body, no headers of its own), marked for `corsMiddleware`. */
export function emptyAnswer(c: Context<HttpEnv>, status: 200): Response {
  c.set('headersInPlace', true)
  return c.body(null, status)
}

/**
 * The finished answer's headers, to add to. An answer with a body is rebuilt first, once, as
 * Hono rebuilds an answer whose headers are set before it is made: its content type and
 * framing stay what they were.
 */
export function finishedHeaders(c: Context<HttpEnv>): Headers {
  if (c.get('headersInPlace') !== true) {
    c.set('headersInPlace', true)
    // Setting the answer over itself is Hono's rebuild (its body read, its headers copied).
    const made = c.res
    c.res = made
  }
  return c.res.headers
}

export function corsMiddleware(policy: AccessPolicy): MiddlewareHandler<HttpEnv> {
  const preflight = cors({
    origin: (origin) => policy.corsOrigin(origin),
    credentials: true,
    allowMethods: ['POST', 'OPTIONS', 'GET', 'PUT', 'DELETE'],
    maxAge: 7200,
  })
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next)
    const origin = policy.corsOrigin(c.req.header('origin') || '')
    await next()
    const headers = finishedHeaders(c)
    if (origin) headers.set('Access-Control-Allow-Origin', origin)
    headers.set('Access-Control-Allow-Credentials', 'true')
    headers.append('Vary', 'Origin')
  }
}
