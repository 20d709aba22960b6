/**
 * The workspace service's Hono app: a trace id per request, telemetry, the routes, and the one
 * place where errors become answers, always in the Open API envelope: unknown routes are
 * 400 RouterNotFound (spec 000, 7), unexpected failures 500 InternalError.
 */
import { Hono } from 'hono'
import type { Registry } from 'prom-client'
import { FerryError } from '../../errors.js'
import { adminRoutes } from './admin.js'
import type { WorkspaceDeps, WorkspaceEnv } from './deps.js'
import { errorResponse, newTraceId } from './envelope.js'
import { ingestRoutes } from './ingest.js'
import { openApiRoutes } from './openapi.js'
import { queryRoutes } from './query.js'

export function createWorkspaceApp(deps: WorkspaceDeps, registry: Registry): Hono<WorkspaceEnv> {
  const app = new Hono<WorkspaceEnv>()
  app.use(async (c, next) => {
    const traceId = newTraceId()
    c.set('traceId', traceId)
    await next()
    c.res.headers.set('X-Trace-Id', traceId)
    const route = c.res.status === 400 && c.req.routePath === '/*' ? 'unmatched' : c.req.routePath
    deps.events.answered(route, c.req.method, c.res.status)
  })
  app.get('/v1/ping', (c) => c.json({ content: { service: 'ferry-workspace' } }))
  app.get(
    '/metrics',
    async () =>
      new Response(await registry.metrics(), { headers: { 'Content-Type': registry.contentType } }),
  )
  ingestRoutes(app, deps)
  queryRoutes(app, deps)
  openApiRoutes(app, deps)
  adminRoutes(app, deps)
  app.notFound((c) =>
    errorResponse(
      new FerryError('routerNotFound', `no route for ${c.req.method} ${c.req.path}`),
      c.get('traceId') ?? newTraceId(),
    ),
  )
  app.onError((err, c) => {
    const traceId = c.get('traceId') ?? newTraceId()
    if (err instanceof FerryError) {
      deps.events.rejected(c.req.routePath, err)
      return errorResponse(err, traceId)
    }
    deps.events.internalError('workspace-http', err)
    return errorResponse(
      new FerryError('internalError', 'unexpected error; see the service log'),
      traceId,
    )
  })
  return app
}
