/**
 * The Dataway side of the upload protocol: `POST /v1/write/:category?token=` with protobuf,
 * line protocol, JSON or PBJSON bodies, gzip or zstd (also deflate and br). The body is
 * decoded completely before anything is stored, so a malformed body stores nothing (400); the
 * answer comes after COMMIT (200), or 503 when the database cannot take the write, which the
 * agent retries; 503 also, before the body is read, when `ingest_queue_bytes` are already held
 * (admission.ts). Also `/v1/ntp` and the object label routes.
 */
import type { Context, Hono } from 'hono'
import { FerryError } from '../../errors.js'
import { isCategory, type Category } from '../../shared/category.js'
import type { Ticket } from '../ingest/admission.js'
import { readBody } from '../../http/body.js'
import type { Workspace } from '../store/accounts.js'
import { parseLabelRequest } from '../store/labels.js'
import type { WorkspaceDeps, WorkspaceEnv } from './deps.js'
import { jsonBody, ok } from './envelope.js'

export async function byToken(c: Context<WorkspaceEnv>, deps: WorkspaceDeps): Promise<Workspace> {
  const token = c.req.query('token')
  if (!token) throw new FerryError('invalidToken', 'the token query parameter is required')
  const ws = await deps.accounts.byToken(token)
  if (!ws) throw new FerryError('invalidToken', 'the token is not valid for any workspace')
  return ws
}

async function write(c: Context<WorkspaceEnv>, deps: WorkspaceDeps): Promise<Response> {
  const category = c.req.param('category') ?? ''
  if (!isCategory(category))
    throw new FerryError('invalidCategory', `unknown category ${JSON.stringify(category)}`)
  const ws = await byToken(c, deps)
  const ticket = deps.admission.admit(Number(c.req.header('content-length')) || 0)
  try {
    return await store(c, deps, ws, category, ticket)
  } finally {
    ticket.release()
  }
}

async function store(
  c: Context<WorkspaceEnv>,
  deps: WorkspaceDeps,
  ws: Workspace,
  category: Category,
  ticket: Ticket,
): Promise<Response> {
  const started = performance.now()
  const limit = deps.config.max_body_size
  const body = await readBody(c.env?.incoming, c.req.raw, limit)
  ticket.resize(body.length)
  if (body.length === 0) throw new FerryError('emptyBody', 'the body is empty')
  const decoded = await deps.decoder.decode({
    body,
    category,
    contentType: c.req.header('content-type') ?? '',
    encoding: c.req.header('content-encoding') ?? '',
    maxBytes: limit,
    now: BigInt(Date.now()) * 1_000_000n,
  })
  const pkgId = c.req.header('x-pkg-id') || null
  deps.quota.take(ws.id, decoded.points)
  const r = await deps.engine.ingest({
    workspaceId: ws.id,
    category,
    tables: decoded.tables,
    points: decoded.points,
    pkgId,
    fingerprint: decoded.fingerprint,
    timed: decoded.timed,
  })
  if (r.duplicate) deps.events.duplicate(ws.name, category, pkgId ?? '', r.dedupe ?? 'id')
  else deps.events.stored(ws.name, category, r.stored, (performance.now() - started) / 1000)
  if (r.reusedId) deps.events.reusedId(ws.name, category, pkgId ?? '')
  return ok(c, { stored: r.stored, duplicate: r.duplicate })
}

export function ingestRoutes(app: Hono<WorkspaceEnv>, deps: WorkspaceDeps): void {
  app.post('/v1/write/:category', (c) => write(c, deps))
  // Unwrapped, as the agent's own /v1/ntp (the agent reads timestamp_sec).
  app.get('/v1/ntp', (c) => c.json({ timestamp_sec: Math.floor(Date.now() / 1000) }))
  app.post('/v1/object/labels', async (c) => {
    const ws = await byToken(c, deps)
    const req = parseLabelRequest(await jsonBody(c, deps.config.max_body_size), true)
    return ok(c, { _id: await deps.labels.set(ws.id, req) })
  })
  app.delete('/v1/object/labels', async (c) => {
    const ws = await byToken(c, deps)
    await deps.labels.delete(
      ws.id,
      parseLabelRequest(await jsonBody(c, deps.config.max_body_size), false),
    )
    return ok(c, { msg: 'delete success' })
  })
}
