/**
 * The workspace service's Hono app: a trace id per request, telemetry, the routes, and the one
 * place where errors become answers, always in the Open API envelope: unknown routes are
 * 400 RouterNotFound (spec 000, 7) on the Open API side and 404 RouterNotFound on the Dataway
 * side (`/v1/...`, as the reference agent expects), logged; unexpected failures 503
 * `InternalError` (spec 000, 7).
 */
import { Hono, type MiddlewareHandler } from 'hono'
import type { Registry } from 'prom-client'
import { FerryError } from '../../errors.js'
import { adminRoutes } from './admin.js'
import type { WorkspaceDeps, WorkspaceEnv } from './deps.js'
import { damagedError, damageMessage } from '../store/damage.js'
import { errorResponse, newTraceId } from './envelope.js'
import { datawayRoutes } from './dataway.js'
import { ingestRoutes } from './ingest.js'
import { openApiRoutes } from './openapi.js'
import { rumOpenApiRoutes } from './rum-openapi.js'
import { FAILED_QUERY_CONTENT, queryRoutes } from './query.js'
import { uiRoutes } from '../ui/routes.js'

/** Every request: a trace id, given back in `X-Trace-Id`, and its route counted. */
function traced(deps: WorkspaceDeps): MiddlewareHandler<WorkspaceEnv> {
  return async (c, next) => {
    const traceId = newTraceId()
    c.set('traceId', traceId)
    await next()
    c.res.headers.set('X-Trace-Id', traceId)
    const unmatched = c.res.status === 400 || c.res.status === 404
    const route = unmatched && c.req.routePath === '/*' ? 'unmatched' : c.req.routePath
    deps.events.answered(route, c.req.method, c.res.status)
  }
}

/** `/v1/ping` (the storage's health) and `/metrics`. */
function serviceRoutes(app: Hono<WorkspaceEnv>, deps: WorkspaceDeps, registry: Registry) {
  app.get('/v1/ping', (c) => {
    const down = deps.storageDown()
    const health = down === null ? { status: 'ok' } : { status: 'degraded', reason: down }
    return c.json({ content: { service: 'ferry-workspace', ...health } })
  })
  app.get(
    '/metrics',
    async () =>
      new Response(await registry.metrics(), { headers: { 'Content-Type': registry.contentType } }),
  )
}

/** Errors become answers here only, in the envelope (see the module's comment). */
function answerErrors(app: Hono<WorkspaceEnv>, deps: WorkspaceDeps): void {
  app.notFound((c) => {
    const code = c.req.path.startsWith('/v1/') ? 'datawayRouteNotFound' : 'routerNotFound'
    const err = new FerryError(code, `no route for ${c.req.method} ${c.req.path}`)
    deps.events.rejected('unmatched', err)
    return errorResponse(err, c.get('traceId') ?? newTraceId())
  })
  app.onError((err, c) => {
    const traceId = c.get('traceId') ?? newTraceId()
    // Damage is no bug of the service: the answer says what failed and what to run.
    const damage = err instanceof FerryError ? null : damageMessage(err)
    if (damage) err = damagedError(damage, err)
    if (err instanceof FerryError) {
      deps.events.rejected(c.req.routePath, err)
      const content = c.req.path === '/v1/query/raw' ? FAILED_QUERY_CONTENT : null
      return errorResponse(err, traceId, {}, content)
    }
    deps.events.internalError('workspace-http', err)
    return errorResponse(
      new FerryError('workspaceInternalError', 'unexpected error; see the service log'),
      traceId,
    )
  })
}

export function createWorkspaceApp(deps: WorkspaceDeps, registry: Registry): Hono<WorkspaceEnv> {
  const app = new Hono<WorkspaceEnv>()
  app.use(traced(deps))
  serviceRoutes(app, deps, registry)
  datawayRoutes(app, deps)
  ingestRoutes(app, deps)
  queryRoutes(app, deps)
  openApiRoutes(app, deps)
  // After openApiRoutes: its middleware decides the workspace of every /api/v1 route.
  rumOpenApiRoutes(app, deps)
  adminRoutes(app, deps)
  uiRoutes(app, deps)
  answerErrors(app, deps)
  return app
}
