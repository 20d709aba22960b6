/**
 * CORS: a preflight (OPTIONS) is answered 204 by Hono's middleware before any check, as
 * browsers send preflights without credentials; with the rate limit on, Hono's middleware
 * handles every request (see below). Otherwise every answer gets
 * `Access-Control-Allow-Origin` (when the origin is allowed), `-Allow-Credentials: true` and
 * `Vary: Origin`, the same headers Hono's middleware gives it.
 *
 * Why not Hono's middleware for every request: it sets its headers on the answer before the
 * route has made it, so each answer is rebuilt (and turned into a full web Response) two or
 * three times. Here the headers are set once, on the finished answer. An answer without a body
 * (`emptyAnswer`, the write route's 200) takes them in place; any other answer is rebuilt once
 * the way Hono's middleware rebuilt it, so its content type and framing stay as they were.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { cors } from 'hono/cors'
import type { HttpEnv } from '../deps.js'
import type { AccessPolicy } from './policy.js'

/** An answer with status only (no body, no headers of its own), marked for `corsMiddleware`. */
export function emptyAnswer(c: Context<HttpEnv>, status: 200): Response {
  c.set('emptyAnswer', true)
  return c.body(null, status)
}

export function corsMiddleware(policy: AccessPolicy): MiddlewareHandler<HttpEnv> {
  const hono = cors({
    origin: (origin) => policy.corsOrigin(origin),
    credentials: true,
    allowMethods: ['POST', 'OPTIONS', 'GET', 'PUT', 'DELETE'],
    maxAge: 7200,
  })
  return async (c, next) => {
    // With the rate limit on, its headers go on the answer before the route runs (an answer made
    // as a plain Response, such as its own 429, takes them from there): Hono's way, unchanged.
    if (c.req.method === 'OPTIONS' || policy.limiter.enabled) return hono(c, next)
    const origin = policy.corsOrigin(c.req.header('origin') || '')
    await next()
    // The first header through c.header rebuilds a body answer as Hono's middleware did.
    if (c.get('emptyAnswer') !== true) c.header('Access-Control-Allow-Credentials', 'true')
    const headers = c.res.headers
    if (origin) headers.set('Access-Control-Allow-Origin', origin)
    headers.set('Access-Control-Allow-Credentials', 'true')
    headers.append('Vary', 'Origin')
  }
}
