/**
 * Admin routes for `ferry workspace ...` while the service holds the database: loopback
 * clients only, authenticated by the secret in `<workspace dir>/admin.secret` (mode 0600, so
 * only the service's user can read it).
 */
import type { Context, Hono } from 'hono'
import { FerryError } from '../../errors.js'
import { sameSecret } from '../../shared/secret.js'
import { RetentionAdmin } from '../retention-admin.js'
import type { WorkspaceDeps, WorkspaceEnv } from './deps.js'
import { jsonBody, ok } from './envelope.js'

export const ADMIN_HEADER = 'x-ferry-admin'

function isLoopback(addr: string | undefined): boolean {
  return (
    addr === undefined ||
    addr === '::1' ||
    addr.startsWith('127.') ||
    addr.startsWith('::ffff:127.')
  )
}

function field(body: unknown, key: string): string {
  const v = (body as Record<string, unknown> | null)?.[key]
  if (typeof v !== 'string' || !v) throw new FerryError('invalidParameter', `${key} is required`)
  return v
}

export function adminRoutes(app: Hono<WorkspaceEnv>, deps: WorkspaceDeps): void {
  app.use('/admin/v1/*', async (c, next) => {
    if (!isLoopback(c.env?.incoming?.socket.remoteAddress))
      throw new FerryError('invalidApiKey', 'admin routes answer loopback clients only')
    if (!sameSecret(c.req.header(ADMIN_HEADER) ?? '', deps.adminSecret))
      throw new FerryError('invalidApiKey', 'the admin secret is not valid')
    await next()
  })
  const body = (c: Context<WorkspaceEnv>) => jsonBody(c, 64 * 1024)
  const a = deps.accounts
  app.post('/admin/v1/workspace/create', async (c) =>
    ok(c, await a.create(field(await body(c), 'name'))),
  )
  app.get('/admin/v1/workspace/list', async (c) => ok(c, await a.list()))
  app.post('/admin/v1/key/create', async (c) => {
    const b = await body(c)
    return ok(c, await a.createKey(field(b, 'workspace'), field(b, 'name')))
  })
  app.get('/admin/v1/key/list', async (c) =>
    ok(c, await a.listKeys(c.req.query('workspace') ?? '')),
  )
  app.post('/admin/v1/key/revoke', async (c) => {
    await a.revokeKey(field(await body(c), 'id'))
    return ok(c, true)
  })
  retentionRoutes(app, new RetentionAdmin(a, deps.retentionOverrides), body)
}

/** A workspace's own retention per category (`ferry workspace retention ...`). */
function retentionRoutes(
  app: Hono<WorkspaceEnv>,
  r: RetentionAdmin,
  body: (c: Context<WorkspaceEnv>) => Promise<unknown>,
): void {
  app.post('/admin/v1/retention/set', async (c) => {
    const b = await body(c)
    const keepMs = (b as Record<string, unknown> | null)?.keep_ms
    return ok(c, await r.set(field(b, 'workspace'), field(b, 'category'), keepMs))
  })
  app.post('/admin/v1/retention/clear', async (c) => {
    const b = await body(c)
    return ok(c, await r.clear(field(b, 'workspace'), field(b, 'category')))
  })
  app.get('/admin/v1/retention/list', async (c) =>
    ok(c, await r.list(c.req.query('workspace') || undefined)),
  )
}
