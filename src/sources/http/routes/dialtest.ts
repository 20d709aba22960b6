/**
 * `POST /v1/dialtesting/debug` (spec 4.12), registered only with `[dialtesting]
 * enable_debug_api`. Like every non-public route it answers loopback callers unless
 * whitelisted; the targets a task may reach are the guard's business (src/dialtest/guard.ts).
 */
import type { Hono } from 'hono'
import { FerryError } from '../../../errors.js'
import { readBody } from '../../../http/body.js'
import { dialDebug, type DialtestDeps } from '../../../dialtest/debug.js'
import { DialGate } from '../../../dialtest/gate.js'
import { NetGuard } from '../../../dialtest/guard.js'
import type { HttpDeps, HttpEnv } from '../deps.js'

/** Multipart files travel base64 inside the task, so a request may be a few MiB. */
const MAX_REQUEST_BYTES = 8 * 1024 * 1024

export function dialtestDeps(deps: HttpDeps): DialtestDeps {
  const c = deps.config.dialtesting
  const { version, host } = deps.identity
  return {
    guard: new NetGuard({
      internal: c.disable_internal_network_task,
      cidrs: c.disabled_internal_network_cidr_list,
    }),
    gate: new DialGate(c.debug_concurrency),
    // A task never outlives its request, which is answered 408 after [http_api] timeout.
    timeoutMs: deps.config.http_api.timeout,
    userAgent: `ferry-${process.platform}-${process.arch}/${version}/${host}`,
  }
}

export function dialtestRoutes(app: Hono<HttpEnv>, deps: HttpDeps): void {
  if (!deps.config.dialtesting.enable_debug_api) return
  const dial = dialtestDeps(deps)
  app.post('/v1/dialtesting/debug', async (c) => {
    const bytes = await readBody(c.env?.incoming, c.req.raw, MAX_REQUEST_BYTES)
    let raw: unknown
    try {
      raw = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8'))
    } catch (e) {
      throw new FerryError('invalidRequest', (e as Error).message)
    }
    return c.json({ content: await dialDebug(raw, dial) })
  })
}
