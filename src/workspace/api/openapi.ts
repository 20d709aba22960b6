/**
 * The hosted Open API (spec 000): DF-API-KEY decides the workspace (and the key id is who made
 * a change: `creator`/`updator`); validate, host and process objects, and the operations in
 * their own modules (dashboards, workspace and keys, notes). GET reads, POST changes; the few
 * documented or client-sent exceptions are listed with their routes.
 */
import type { Context, Hono } from 'hono'
import { FerryError } from '../../errors.js'
import { dashboardRoutes } from './dashboard-routes.js'
import type { WorkspaceDeps, WorkspaceEnv } from './deps.js'
import { jsonBody, ok } from './envelope.js'
import { clientAddress } from './key-throttle.js'
import { notesRoutes } from './notes-routes.js'
import { objectList } from './objects.js'
import { router } from './route.js'
import { workspaceRoutes } from './workspace-routes.js'

export function openApiRoutes(app: Hono<WorkspaceEnv>, deps: WorkspaceDeps): void {
  app.use('/api/v1/*', async (c, next) => {
    const key = c.req.header('df-api-key')
    if (!key) throw new FerryError('invalidApiKey', 'the DF-API-KEY header is required')
    const client = clientAddress(c)
    deps.keys.admit(client)
    const owner = await deps.accounts.ownerOfKey(key)
    if (!owner) throw new FerryError('invalidApiKey', 'the API key is not valid')
    deps.keys.forgive(client)
    c.set('workspace', owner.workspace)
    c.set('keyId', owner.keyId)
    await next()
  })
  const route = router(app, deps)
  const body = (c: Context<WorkspaceEnv>) => jsonBody(c, deps.config.max_body_size)

  route('GET', ['/api/v1/validate'], async (c) => {
    const ws = c.get('workspace')
    return ok(c, { workspaceUUID: ws.id, workspaceName: ws.name })
  })
  dashboardRoutes(route, deps, body)
  workspaceRoutes(route, deps, body)
  notesRoutes(route, deps, body)
  route('GET', ['/api/v1/object/host/list'], (c) => objectList(c, deps, 'host'))
  route('GET', ['/api/v1/object/process/list'], (c) => objectList(c, deps, 'process'))
}
