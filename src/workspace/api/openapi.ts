/**
 * The hosted Open API (spec 000): DF-API-KEY decides the workspace; dashboards, host and
 * process objects, validate. Each route has one method (GET to read, POST to change); another
 * method on a known route is 405 with `Allow`. The plural `/api/v1/dashboards/...` of the
 * hosted service is an alias.
 */
import type { Context, Hono } from 'hono'
import { FerryError } from '../../errors.js'
import type { WorkspaceDeps, WorkspaceEnv } from './deps.js'
import { errorResponse, jsonBody, ok } from './envelope.js'
import { clientAddress } from './key-throttle.js'
import { objectList } from './objects.js'
import { dashboardInput, pageInfo, paging } from './params.js'

type Handler = (c: Context<WorkspaceEnv>) => Promise<Response>

type Route = (method: 'GET' | 'POST', paths: string[], h: Handler) => void

function router(app: Hono<WorkspaceEnv>, deps: WorkspaceDeps): Route {
  return (method, paths, h) => {
    for (const path of paths)
      app.all(path, (c) => {
        if (c.req.method === method || (method === 'GET' && c.req.method === 'HEAD')) return h(c)
        const err = new FerryError(
          'methodNotAllowed',
          `${c.req.method} ${c.req.path}: use ${method}`,
        )
        deps.events.rejected(path, err)
        return errorResponse(err, c.get('traceId'), { Allow: method })
      })
  }
}

const both = (rest: string) => [`/api/v1/dashboard${rest}`, `/api/v1/dashboards${rest}`]

export function openApiRoutes(app: Hono<WorkspaceEnv>, deps: WorkspaceDeps): void {
  app.use('/api/v1/*', async (c, next) => {
    const key = c.req.header('df-api-key')
    if (!key) throw new FerryError('invalidApiKey', 'the DF-API-KEY header is required')
    const client = clientAddress(c)
    deps.keys.admit(client)
    const ws = await deps.accounts.byApiKey(key)
    if (!ws) throw new FerryError('invalidApiKey', 'the API key is not valid')
    deps.keys.forgive(client)
    c.set('workspace', ws)
    c.set('apiKey', key.slice(0, 6))
    await next()
  })
  const body = (c: Context<WorkspaceEnv>) => jsonBody(c, deps.config.max_body_size)
  const d = deps.dashboards
  const route = router(app, deps)

  route('GET', ['/api/v1/validate'], async (c) => {
    const ws = c.get('workspace')
    return ok(c, { workspaceUUID: ws.id, workspaceName: ws.name })
  })
  route('GET', both('/list'), async (c) => {
    const p = paging(c.req.query())
    const page = await d.list(
      c.get('workspace').id,
      c.req.query('search') ?? '',
      (p.pageIndex - 1) * p.pageSize,
      p.pageSize,
    )
    return ok(c, page.items, pageInfo(p, page.items.length, page.total))
  })
  route('POST', both('/create'), async (c) =>
    ok(
      c,
      await d.create(c.get('workspace').id, dashboardInput(await body(c), true), c.get('apiKey')),
    ),
  )
  route('GET', both('/:id/get'), async (c) =>
    ok(c, await d.get(c.get('workspace').id, c.req.param('id') ?? '')),
  )
  route('POST', both('/:id/modify'), async (c) =>
    ok(
      c,
      await d.modify(
        c.get('workspace').id,
        c.req.param('id') ?? '',
        dashboardInput(await body(c), false),
        c.get('apiKey'),
      ),
    ),
  )
  route('POST', both('/:id/delete'), async (c) => {
    await d.delete(c.get('workspace').id, c.req.param('id') ?? '')
    return ok(c, true)
  })
  route('GET', ['/api/v1/object/host/list'], (c) => objectList(c, deps, 'host'))
  route('GET', ['/api/v1/object/process/list'], (c) => objectList(c, deps, 'process'))
}
