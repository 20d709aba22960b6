/**
 * The Hono application: common headers, per-route telemetry, access control (CORS,
 * loopback-or-public, rate limit, timeout, in-flight), routes, and the one place where errors
 * become HTTP answers (`onError`): FerryError by its table entry, anything else 500.
 */
import { Hono, type MiddlewareHandler } from 'hono'
import type { Registry } from 'prom-client'
import { FerryError } from '../../errors.js'
import type { HttpDeps, HttpEnv } from './deps.js'
import { forwardRoutes } from './routes/forward.js'
import { infoRoutes } from './routes/info.js'
import { metricsRoutes } from './routes/metrics.js'
import { pipelineRoutes } from './routes/pipeline.js'
import { writeRoutes } from './routes/write.js'
import { globalTagRoutes } from './routes/global-tags.js'
import { lastErrorRoutes } from './routes/last-error.js'
import { monitorRoutes } from './routes/monitor.js'
import { dialtestRoutes } from './routes/dialtest.js'
import { replayRoutes } from './routes/replay.js'
import { sourcemapRoutes } from './routes/sourcemap.js'
import { tapRoutes } from './routes/tap.js'
import { otlpRoutes } from './routes/otlp.js'
import { ddtraceRoutes } from './routes/ddtrace.js'
import { boundHeaders } from './header-bounds.js'
import { clientOf } from './access/client.js'
import { corsMiddleware } from './access/cors.js'
import {
  inFlightMiddleware,
  publicAccessMiddleware,
  rateLimitMiddleware,
  timeoutMiddleware,
} from './access/middleware.js'

function errorResponse(err: FerryError): Response {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'X-Content-Type-Options': 'nosniff',
  }
  if (err.retryAfter !== undefined) headers['Retry-After'] = String(err.retryAfter)
  return new Response(JSON.stringify(err.toBody()), { status: err.status, headers })
}

/** Every answer: the agent's header, bounded headers, and its route's count and time. */
function answered(deps: HttpDeps): MiddlewareHandler<HttpEnv> {
  const agentHeader = `${deps.identity.version}/${deps.identity.host}`
  return async (c, next) => {
    const started = performance.now()
    await next()
    c.res.headers.set('X-Agent', agentHeader)
    boundHeaders(c.res.headers)
    // routePath is the matched pattern (bounded label values), '*' when nothing matched.
    const route = c.res.status === 404 && c.req.routePath === '/*' ? 'unmatched' : c.req.routePath
    deps.events.httpAnswered(
      route,
      c.req.method,
      c.res.status,
      (performance.now() - started) / 1000,
    )
  }
}

/** The routes in matching order; the replay route comes before the write route. */
const ROUTES: ((app: Hono<HttpEnv>, deps: HttpDeps) => void)[] = [
  // `/v1/write/rum/replay` is not a category.
  replayRoutes,
  writeRoutes,
  otlpRoutes,
  ddtraceRoutes,
  sourcemapRoutes,
  infoRoutes,
  forwardRoutes,
  pipelineRoutes,
  globalTagRoutes,
  lastErrorRoutes,
  monitorRoutes,
  dialtestRoutes,
  tapRoutes,
]

/** Errors become answers here only: a FerryError by its table entry, anything else 500. */
function answerErrors(app: Hono<HttpEnv>, deps: HttpDeps): void {
  app.notFound((c) =>
    errorResponse(new FerryError('routeNotFound', `no route for ${c.req.method} ${c.req.path}`)),
  )
  app.onError((err, c) => {
    // A body past a cap (a bomb) sheds its client a second too: the next one waits, unread.
    if (err instanceof FerryError && err.status === 413)
      deps.access.refused(c, clientOf(c, deps.access.trusted).ip, 1)
    if (err instanceof FerryError) return errorResponse(err)
    deps.events.internalError('http', err)
    return errorResponse(new FerryError('internalError', 'unexpected error; see the agent log'))
  })
}

export function createApp(deps: HttpDeps, registry: Registry): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>()
  app.use(answered(deps))
  app.use(corsMiddleware(deps.access))
  app.use(publicAccessMiddleware(deps.access))
  app.use(rateLimitMiddleware(deps.access))
  // After the cheap refusals: a request refused 429 or 403 costs no timer and no abort signal.
  app.use(timeoutMiddleware(deps.access))
  app.use(inFlightMiddleware(deps.access))
  for (const routes of ROUTES) routes(app, deps)
  metricsRoutes(app, registry)
  answerErrors(app, deps)
  return app
}
