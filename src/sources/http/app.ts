/**
 * The Hono application: common headers, per-route telemetry, access control (CORS,
 * loopback-or-public, rate limit, timeout, in-flight), routes, and the one place where errors become HTTP answers
 * (`onError`): FerryError by its table entry, anything else 500.
 */
import { Hono } from 'hono'
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

export function createApp(deps: HttpDeps, registry: Registry): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>()
  const agentHeader = `${deps.identity.version}/${deps.identity.host}`

  app.use(async (c, next) => {
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
  })

  app.use(corsMiddleware(deps.access))
  app.use(publicAccessMiddleware(deps.access))
  app.use(rateLimitMiddleware(deps.access))
  // After the cheap refusals: a request refused 429 or 403 costs no timer and no abort signal.
  app.use(timeoutMiddleware(deps.access))
  app.use(inFlightMiddleware(deps.access))

  // Before the write route: `/v1/write/rum/replay` is not a category.
  replayRoutes(app, deps)
  writeRoutes(app, deps)
  otlpRoutes(app, deps)
  ddtraceRoutes(app, deps)
  sourcemapRoutes(app, deps)
  infoRoutes(app, deps)
  forwardRoutes(app, deps)
  pipelineRoutes(app, deps)
  globalTagRoutes(app, deps)
  lastErrorRoutes(app, deps)
  monitorRoutes(app, deps)
  dialtestRoutes(app, deps)
  tapRoutes(app, deps)
  metricsRoutes(app, registry)

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
  return app
}
