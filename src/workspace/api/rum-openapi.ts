/**
 * Open API routes for RUM data that is not points: the session replay segments a workspace
 * holds (`GET /api/v1/rum/replay/list`) and its RUM variables (`GET /api/v1/rum/env_variable/get`,
 * `POST /api/v1/rum/env_variable/set` with `{app_id?, key, value}`, value null removes), which
 * `GET /v1/env_variable` serves to the agents. DF-API-KEY decides the workspace (openapi.ts).
 */
import type { Hono } from 'hono'
import { FerryError } from '../../errors.js'
import type { WorkspaceDeps, WorkspaceEnv } from './deps.js'
import { jsonBody, ok } from './envelope.js'
import { pageInfo, paging } from './params.js'

function variable(body: unknown): { appId: string; key: string; value: string | null } {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>
  if (typeof b.key !== 'string' || !b.key)
    throw new FerryError('invalidParameter', 'key is required')
  if (b.value !== null && typeof b.value !== 'string')
    throw new FerryError('invalidParameter', 'value must be a string, or null to remove the key')
  if (b.app_id !== undefined && typeof b.app_id !== 'string')
    throw new FerryError('invalidParameter', 'app_id must be a string')
  return { appId: b.app_id ?? '', key: b.key, value: b.value }
}

export function rumOpenApiRoutes(app: Hono<WorkspaceEnv>, deps: WorkspaceDeps): void {
  app.get('/api/v1/rum/replay/list', async (c) => {
    const p = paging(c.req.query())
    const ws = c.get('workspace')
    const items = await deps.replays.list(ws.id, (p.pageIndex - 1) * p.pageSize, p.pageSize)
    return ok(c, items, pageInfo(p, items.length, items.length))
  })
  app.get('/api/v1/rum/env_variable/get', async (c) =>
    ok(c, await deps.envVariables.forApp(c.get('workspace').id, c.req.query('app_id') ?? '')),
  )
  app.post('/api/v1/rum/env_variable/set', async (c) => {
    const v = variable(await jsonBody(c, deps.config.max_body_size))
    await deps.envVariables.set(c.get('workspace').id, v.appId, v.key, v.value)
    return ok(c, true)
  })
}
