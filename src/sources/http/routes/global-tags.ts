/**
 * Global host and election tags (spec 4.8, 4.9). GET answers one table; POST (tags as query
 * parameters, first value per key) and DELETE (`tags=a,b`) answer all three tables after the
 * change, plus `persisted`: whether the change was written to the main config file (host mode)
 * or only applies in memory (container mode). A change is on disk before it is answered, and
 * applies to points written after it.
 */
import type { Context, Hono } from 'hono'
import { FerryError } from '../../../errors.js'
import type { TagTable } from '../../../tags/global-tags.js'
import type { TagChange } from '../../../tags/tag-file.js'
import type { HttpDeps, HttpEnv } from '../deps.js'

const ELECTION_OFF = "Can't use this command when global-election is false."

function setParams(url: URL): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of url.searchParams) if (k && !(k in out)) out[k] = v
  return out
}

function deleteParams(url: URL): string[] {
  return (url.searchParams.get('tags') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
}

async function change(deps: HttpDeps, c: Context<HttpEnv>, ch: TagChange): Promise<Response> {
  if (ch.table === 'election' && !deps.tags.electionEnabled)
    throw new FerryError('electionDisabled', ELECTION_OFF)
  const file = deps.tagFile
  const empty = !Object.keys(ch.set ?? {}).length && !(ch.delete ?? []).length
  if (file && !empty) await file.apply(ch)
  if (ch.set) deps.tags.update(ch.table, ch.set)
  if (ch.delete) deps.tags.delete(ch.table, ch.delete)
  if (!empty) deps.events.tagsChanged(ch.table, c.req.method, file !== null)
  return c.json({ ...deps.tags.view(), persisted: file !== null })
}

function routes(app: Hono<HttpEnv>, deps: HttpDeps, table: TagTable): void {
  const path = `/v1/global/${table}/tags`
  app.get(path, (c) =>
    c.json(
      table === 'host'
        ? { 'host-tags': deps.tags.hostTags() }
        : { 'election-tags': deps.tags.election() },
    ),
  )
  app.post(path, (c) => change(deps, c, { table, set: setParams(new URL(c.req.url)) }))
  app.delete(path, (c) => change(deps, c, { table, delete: deleteParams(new URL(c.req.url)) }))
}

export function globalTagRoutes(app: Hono<HttpEnv>, deps: HttpDeps): void {
  routes(app, deps, 'host')
  routes(app, deps, 'election')
}
