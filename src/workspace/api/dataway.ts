/**
 * The other Dataway routes the reference agent calls (issue 15): its configuration pull every
 * 10 s, RUM variables for the browser SDK, session replay uploads, and election. Answers are
 * raw JSON where the agent reads them raw (pull), else the envelope.
 */
import type { Context, Hono } from 'hono'
import { FerryError } from '../../errors.js'
import { readBody } from '../../http/body.js'
import type { WorkspaceDeps, WorkspaceEnv } from './deps.js'
import { ok } from './envelope.js'
import { byToken } from './ingest.js'

const int = (v: string | undefined) => (v !== undefined && /^\d+$/.test(v) ? Number(v) : 0)

/**
 * The empty configuration: no filters, no remote pipelines (the agent's own timestamps echoed,
 * so it sees nothing new), no key-value store. Each part is present only when asked for, as
 * the agent asks for them on separate pulls.
 */
function pull(c: Context<WorkspaceEnv>): Record<string, unknown> {
  const q = c.req.query()
  const out: Record<string, unknown> = {}
  if (q.filters === 'true' || Object.keys(q).every((k) => k === 'token')) out.filters = {}
  if (q.remote_pipelines === 'true')
    out.remote_pipelines = {
      update_time: int(q.ts),
      pipelines: [],
      relation_update_time: int(q.relation_ts),
      relation: [],
    }
  if (q.kv === 'true') out.kv = null
  return out
}

async function replay(c: Context<WorkspaceEnv>, deps: WorkspaceDeps): Promise<Response> {
  const ws = await byToken(c, deps)
  const body = await readBody(c.env?.incoming, c.req.raw, deps.config.max_body_size)
  const type = c.req.header('content-type') ?? ''
  let form: FormData
  try {
    form = await new Response(body, { headers: { 'content-type': type } }).formData()
  } catch {
    throw new FerryError('invalidParameter', 'the body must be multipart/form-data')
  }
  const segment = form.get('segment')
  if (!segment || typeof segment === 'string')
    throw new FerryError('invalidParameter', 'the multipart body has no segment file')
  const fields: Record<string, string> = {}
  for (const [k, v] of form.entries()) if (typeof v === 'string') fields[k] = v
  const bytes = new Uint8Array(await segment.arrayBuffer())
  const id = await deps.replays.store(ws.id, { fields, segment: bytes })
  deps.events.replayStored(ws.name, bytes.length)
  return ok(c, { id })
}

/**
 * DataKit's usage report (host, version, CPU cores, inputs), sent about a minute after it
 * starts and every minute after. Dataway takes it and answers 2xx, which is all the agent
 * reads; Ferry keeps nothing of it but a debug line.
 */
async function usageTrace(c: Context<WorkspaceEnv>, deps: WorkspaceDeps): Promise<Response> {
  const ws = await byToken(c, deps)
  const body = await readBody(c.env?.incoming, c.req.raw, deps.config.max_body_size)
  let report: Record<string, unknown>
  try {
    report = JSON.parse(Buffer.from(body).toString('utf8')) as Record<string, unknown>
  } catch {
    throw new FerryError('invalidParameter', 'the usage trace body must be JSON')
  }
  deps.events.usageTrace(ws.name, report)
  return ok(c, {})
}

export function datawayRoutes(app: Hono<WorkspaceEnv>, deps: WorkspaceDeps): void {
  app.post('/v1/datakit/usage_trace', (c) => usageTrace(c, deps))
  app.get('/v1/datakit/pull', async (c) => {
    await byToken(c, deps)
    return c.json(pull(c))
  })
  app.get('/v1/env_variable', async (c) => {
    const ws = await byToken(c, deps)
    return ok(c, await deps.envVariables.forApp(ws.id, c.req.query('app_id') ?? ''))
  })
  app.post('/v1/write/rum/replay', (c) => replay(c, deps))
  // One workspace serves agents that never share an election namespace with another node.
  const election = (c: Context<WorkspaceEnv>) => {
    throw new FerryError(
      'datawayRouteNotFound',
      `${c.req.path}: this workspace does not run elections; set [election] enable = false on the agent`,
    )
  }
  app.post('/v1/election', election)
  app.post('/v1/election/heartbeat', election)
}
