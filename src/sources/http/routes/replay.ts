/**
 * `POST /v1/write/rum/replay`: a session replay segment (multipart, `[rum]
 * replay_max_body_size` at most). Uploads matching `[rum] replay_filter_rules` are dropped
 * with 202; the others are queued durably and answered 200 only then (empty body); the
 * forwarder sends them on.
 */
import type { Hono } from 'hono'
import { FerryError } from '../../../errors.js'
import { readBody } from '../../../http/body.js'
import { matchesAny, parseRules } from '../../../rum/replay/filter.js'
import type { HttpDeps, HttpEnv } from '../deps.js'

/** The form values of a multipart body, read from its own bytes (no file parts kept). */
async function formValues(body: Uint8Array, contentType: string): Promise<Map<string, string>> {
  const req = new Request('http://replay/', {
    method: 'POST',
    body,
    headers: { 'Content-Type': contentType },
  })
  const values = new Map<string, string>()
  try {
    const form = await req.formData()
    for (const [k, v] of form.entries()) if (typeof v === 'string') values.set(k, v)
  } catch (e) {
    throw new FerryError('invalidReplay', `parse multipart form failed: ${(e as Error).message}`)
  }
  return values
}

export function replayRoutes(app: Hono<HttpEnv>, deps: HttpDeps): void {
  const rum = deps.rum
  if (!rum) return
  const rules = parseRules(deps.config.rum.replay_filter_rules)
  app.post('/v1/write/rum/replay', async (c) => {
    const limit = deps.config.rum.replay_max_body_size
    const body = await readBody(c.env?.incoming, c.req.raw, limit).catch((e: unknown) => {
      if (e instanceof FerryError && e.code === 'bodyTooLarge')
        throw new FerryError('badRequest', `request body size exceeds the limit ${limit}`)
      throw e
    })
    const contentType = c.req.header('content-type') ?? ''
    const values = await formValues(body, contentType)
    if (matchesAny(rules, values)) {
      rum.events.replay('filtered')
      return c.body(null, 202)
    }
    await rum.replay.push(contentType, body)
    rum.events.replay('queued')
    return c.body(null, 200)
  })
}
