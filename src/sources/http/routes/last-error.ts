/**
 * `POST /v1/lasterror` (spec 4.15): an external collector reports an error. `input` and
 * `err_content` are required strings (400 `agent.invalidLastError`); `source` is optional.
 * The report is logged, counted in /metrics, kept among the recent errors `ferry monitor` shows,
 * and stored as a logging point of Ferry's own that goes upstream like any other: measurement
 * `ferry_lasterror`, tags `input`, `error_source` (a logging point may not carry a `source`
 * key) and `status=error`, field `message`. Answer: 200, empty, once the point is buffered.
 */
import type { Hono } from 'hono'
import { FerryError } from '../../../errors.js'
import { plainTask } from '../../../ingest/protocol.js'
import { readBody } from '../../../http/body.js'
import { accept } from '../../../ingest/accept.js'
import { acceptDeps, type HttpDeps, type HttpEnv } from '../deps.js'

const MAX_BODY = 1024 * 1024
export const LAST_ERROR_MEASUREMENT = 'ferry_lasterror'

export interface LastErrorReport {
  input: string
  source: string
  message: string
}

export function parseReport(text: string): LastErrorReport {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch (e) {
    throw new FerryError('invalidJson', `body is not JSON: ${(e as Error).message}`)
  }
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>
  const str = (k: string) => (typeof b[k] === 'string' ? (b[k] as string) : '')
  const report = { input: str('input'), source: str('source'), message: str('err_content') }
  if (!report.input || !report.message)
    throw new FerryError('invalidLastError', 'input and err_content are required strings')
  return report
}

async function store(deps: HttpDeps, r: LastErrorReport): Promise<void> {
  const point = {
    measurement: LAST_ERROR_MEASUREMENT,
    tags: { input: r.input, ...(r.source ? { error_source: r.source } : {}), status: 'error' },
    fields: { message: r.message },
  }
  const body = new TextEncoder().encode(JSON.stringify([point]))
  const task = plainTask(body, 'logging', {
    contentType: 'application/json',
    extraTags: deps.tags.forWrite({ ignoreHost: false, election: false }),
    maxBodyBytes: MAX_BODY * 2,
  })
  await accept(acceptDeps(deps), task, { input: 'lasterror' })
}

export function lastErrorRoutes(app: Hono<HttpEnv>, deps: HttpDeps): void {
  app.post('/v1/lasterror', async (c) => {
    const body = await readBody(c.env?.incoming, c.req.raw, MAX_BODY)
    const report = parseReport(new TextDecoder().decode(body))
    deps.events.lastError(report.input, report.source, report.message)
    await store(deps, report)
    deps.events.writeAccepted({
      category: 'logging',
      input: 'lasterror',
      points: 1,
      warnings: {},
      dry: false,
    })
    return c.body(null, 200)
  })
}
