/**
 * OTLP/HTTP receivers (`[otlp]`): `POST` at the reference's routes (`/otel/v1/traces` ...) and
 * at OTLP's standard paths (`/v1/traces`, `/v1/metrics`, `/v1/logs`). The body is read like a
 * write's (size limit, in-flight budget, Content-Encoding) and goes the write's way: a decode
 * worker maps it to points (decode/otlp), with checks, pipeline, `[io]` filters, then the
 * durable buffer, and only then the answer: the export response of the request's encoding,
 * with partial success when entries were rejected. Errors are the agent's error bodies; 429
 * and 503 always carry Retry-After, which OTLP exporters honour.
 */
import type { Context, Hono } from 'hono'
import { FerryError } from '../../../errors.js'
import { accept } from '../../../ingest/accept.js'
import { otlpEncoding } from '../../../decode/otlp/decode.js'
import type { OtlpSignal } from '../../../decode/otlp/model.js'
import { exportResponse } from '../../../decode/otlp/response.js'
import { OtlpEvents } from '../../../telemetry/otlp-events.js'
import { acceptDeps, type HttpDeps, type HttpEnv } from '../deps.js'
import { budgetedBody } from './write.js'
import { OTLP_CATEGORY, otlpTask } from '../../otlp/task.js'
import type { DecodeOk } from '../../../ingest/protocol.js'

/** OTLP clients retry 429 and 503 after Retry-After; every such answer carries one. */
function withRetryAfter(e: unknown): unknown {
  if (
    e instanceof FerryError &&
    (e.status === 429 || e.status === 503) &&
    e.retryAfter === undefined
  )
    e.retryAfter = 1
  return e
}

/** Decodes and buffers an export request's body; resolves once its points are safe. */
async function decodeExport(
  c: Context<HttpEnv>,
  deps: HttpDeps,
  signal: OtlpSignal,
  body: Uint8Array,
): Promise<DecodeOk> {
  const task = otlpTask(deps, {
    signal,
    body,
    contentType: c.req.header('content-type') ?? '',
    encoding: c.req.header('content-encoding') ?? '',
    remoteIp: c.env?.incoming?.socket?.remoteAddress ?? '',
  })
  return accept(acceptDeps(deps), task, {
    input: 'opentelemetry',
    abandoned: () => c.get('signal')?.aborted === true,
  })
}

async function receive(
  c: Context<HttpEnv>,
  deps: HttpDeps,
  signal: OtlpSignal,
  events: OtlpEvents,
) {
  const category = OTLP_CATEGORY[signal]
  const enc = otlpEncoding(c.req.header('content-type') ?? '')
  if (enc === null)
    throw new FerryError(
      'unsupportedMediaType',
      'OTLP bodies are application/x-protobuf or application/json',
    )
  const releases: (() => void)[] = []
  try {
    const body = await budgetedBody(c.env?.incoming, c.req.raw, deps, releases)
    deps.events.bodyReceived(category, body.length)
    const out = await decodeExport(c, deps, signal, body)
    const { points, warnings } = out
    deps.events.writeAccepted({ category, input: 'opentelemetry', points, warnings, dry: false })
    events.exported(signal, out.points, out.otlp)
    const rejected = out.otlp?.rejected ?? 0
    const answer = exportResponse(signal, enc, rejected, out.otlp?.reason ?? '')
    c.header('Content-Type', answer.contentType)
    return c.body(answer.body as never, deps.config.otlp.http_status_ok as 200)
  } catch (e) {
    if (e instanceof FerryError) deps.events.writeRejected(category, 'opentelemetry', e)
    throw withRetryAfter(e)
  } finally {
    for (const release of releases) release()
  }
}

export function otlpRoutes(app: Hono<HttpEnv>, deps: HttpDeps): void {
  const cfg = deps.config.otlp
  if (!cfg.enable) return
  const events = new OtlpEvents(deps.events.log, deps.events.metrics.registry)
  const routes: [OtlpSignal, string][] = [
    ['traces', cfg.trace_api],
    ['metrics', cfg.metric_api],
    ['logs', cfg.logs_api],
  ]
  for (const [signal, path] of routes)
    for (const p of new Set([path, `/v1/${signal}`]))
      app.post(p, (c) => receive(c, deps, signal, events))
}
