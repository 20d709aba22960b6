/**
 * The ddtrace receiver (`[ddtrace]`): `PUT` and `POST` at `/v0.3/traces`, `/v0.4/traces` and
 * `/v0.5/traces`, where Datadog tracers send spans to their agent. The body is read like a
 * write's (its own size limit, the in-flight budget, Content-Encoding) and goes the write's
 * way: a decode worker maps it to points (decode/ddtrace), with checks, pipeline, `[io]`
 * filters, then the durable buffer, and only then the answer the tracers expect: `OK` for
 * v0.3, and for v0.4 and v0.5 a JSON body with `rate_by_service` (keep everything: sampling
 * is done here) and the `Datadog-Rates-Payload-Version` header echoed. An empty body is
 * answered without a task. Refusals are the agent's error bodies. `/info` and `/v0.6/stats`
 * are not served (404), as in the reference.
 */
import type { Context, Hono } from 'hono'
import { FerryError } from '../../../errors.js'
import { accept } from '../../../ingest/accept.js'
import type { DdtraceVersion } from '../../../decode/ddtrace/model.js'
import { DdtraceEvents } from '../../../telemetry/ddtrace-events.js'
import { acceptDeps, type HttpDeps, type HttpEnv } from '../deps.js'
import { budgetedBody } from './write.js'
import { ddtraceBodyLimit, ddtraceTask } from '../../ddtrace/task.js'

const RATES = JSON.stringify({ rate_by_service: { 'service:,env:': 1 } })
const RATES_VERSION = 'Datadog-Rates-Payload-Version'

function answer(c: Context<HttpEnv>, version: DdtraceVersion) {
  if (version === 'v0.3') return c.text('OK\n', 200)
  const rates = c.req.header(RATES_VERSION)
  if (rates) c.header(RATES_VERSION, rates)
  c.header('Content-Type', 'application/json')
  return c.body(RATES, 200)
}

async function receive(
  c: Context<HttpEnv>,
  deps: HttpDeps,
  version: DdtraceVersion,
  events: DdtraceEvents,
) {
  const releases: (() => void)[] = []
  try {
    const limit = ddtraceBodyLimit(deps)
    const body = await budgetedBody(c.env?.incoming, c.req.raw, deps, releases, limit)
    deps.events.bodyReceived('tracing', body.length)
    if (body.length === 0) return answer(c, version)
    const out = await accept(
      acceptDeps(deps),
      ddtraceTask(deps, {
        version,
        body,
        contentType: c.req.header('content-type') ?? '',
        encoding: c.req.header('content-encoding') ?? '',
        remoteIp: c.env?.incoming?.socket?.remoteAddress ?? '',
      }),
      { input: 'ddtrace', abandoned: () => c.get('signal')?.aborted === true },
    )
    deps.events.writeAccepted({
      category: 'tracing',
      input: 'ddtrace',
      points: out.points,
      warnings: out.warnings,
      dry: false,
    })
    events.accepted(version, out.points, out.ddtrace)
    return answer(c, version)
  } catch (e) {
    if (e instanceof FerryError) deps.events.writeRejected('tracing', 'ddtrace', e)
    throw e
  } finally {
    for (const release of releases) release()
  }
}

export function ddtraceRoutes(app: Hono<HttpEnv>, deps: HttpDeps): void {
  const cfg = deps.config.ddtrace
  if (!cfg.enable) return
  const events = new DdtraceEvents(deps.events.log, deps.events.metrics.registry)
  for (const path of new Set(cfg.endpoints)) {
    const version = path.slice(1, 5) as DdtraceVersion
    app.on(['PUT', 'POST'], path, (c) => receive(c, deps, version, events))
  }
}
