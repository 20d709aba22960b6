/**
 * One decode task, start to end: decompress, then the byte-level transcoder when it takes the
 * body, else the general path: parse, resolve times, correct, echo, add global tags, pipeline
 * (stages.ts), IO filters and time correction (io-apply.ts), encode. Runs inside a worker; never
 * throws (errors come back as `DecodeFailed`).
 */
import { FerryError, toPayload } from '../errors.js'
import { echo } from '../decode/codec/echo.js'
import { decompress } from '../decode/decompress.js'
import { decompressCapped } from '../decode/decompress-capped.js'
import { capPlain } from '../decode/point-cap.js'
import { formatOf, parseBody, type Parsed } from '../decode/parse-body.js'
import { decodeOtlp } from '../decode/otlp/decode.js'
import type { MapStats } from '../decode/otlp/stats.js'
import { decodeDdtrace } from '../decode/ddtrace/decode.js'
import type { DdtraceStats } from '../decode/ddtrace/model.js'
import { tryFast } from './fast.js'
import { tryFastOtlp } from './fast-otlp.js'
import type { DecodeResult, DecodeTask } from './protocol.js'
import type { PipelineHost } from '../pipeline/worker-host.js'
import type { RumStage } from '../rum/stage.js'
import { addGeoTags, checkRum, resolveStacks } from './rum.js'
import { applyIo } from './io-apply.js'
import { PAYLOAD_ROOM } from '../shared/payload-room.js'
import type { Point } from '../shared/point.js'
import { addExtraTags, checkAll, encodeAll, resolveTimes, runPipeline } from './stages.js'

/** A write's body by its Content-Type, or an OTLP or ddtrace request (which may hold nothing). */
function parseTask(
  t: DecodeTask,
  body: Uint8Array,
): Parsed & { otlp?: MapStats; ddtrace?: DdtraceStats } {
  if (t.ddtrace) {
    const out = decodeDdtrace(t.ddtrace.version, t.contentType, body, t.ddtrace.options)
    return { points: out.points, format: 'protobuf', ddtrace: out.stats }
  }
  if (t.otlp) {
    const out = decodeOtlp(t.otlp.signal, t.contentType, body, t.otlp.options)
    return { points: out.points, format: 'protobuf', otlp: out.stats }
  }
  const parsed = parseBody(t.contentType, body, t.maxPoints)
  if (parsed.points.length === 0) throw new FerryError('noPoints', 'the body holds no point')
  return parsed
}

/**
 * A line protocol body is inflated in slices that stop at the point cap (a bomb of tiny lines
 * costs little), and an uncompressed one is watched the same way before it is decoded; JSON,
 * protobuf, OTLP and ddtrace bodies are counted by their parsers after inflation.
 */
function inflate(t: DecodeTask): Uint8Array | Promise<Uint8Array> {
  if (t.otlp || t.ddtrace || formatOf(t.contentType) !== 'lp')
    return decompress(t.encoding, t.body, t.maxBodyBytes)
  if (t.encoding !== '') return decompressCapped(t.encoding, t.body, t.maxBodyBytes, t.maxPoints)
  capPlain(t.body, t.maxPoints)
  return t.body
}

/** The byte-level transcoder of the task's format, if it has one; null: the general path. */
function tryTranscoder(t: DecodeTask, body: Uint8Array, host: PipelineHost | null) {
  if (t.otlp) return tryFastOtlp(t, body, host)
  return t.ddtrace ? null : tryFast(t, body, host)
}

/** RUM's checks and geo tags, the echo, then RUM's source maps and CDN marks, in that order. */
async function rumAndEcho(points: Point[], t: DecodeTask, rum: RumStage | null) {
  if (t.rum) {
    checkRum(points, t.rum)
    addGeoTags(points, t.rum.geoTags)
  }
  // After the geo tags: a RUM echo shows the ip/city/province/country/isp that are stored.
  const echoed = t.echo ? echo(points, t.echo) : null
  const sourcemaps = t.rum && rum ? await resolveStacks(points, rum.resolver) : undefined
  const cdn = t.rum && rum?.cdn ? await rum.cdn.mark(points) : undefined
  return { echoed, sourcemaps, cdn }
}

/** The general path: parse, correct, check, RUM, tags, pipeline, `[io]`, encode. */
async function generalPath(
  t: DecodeTask,
  body: Uint8Array,
  host: PipelineHost | null,
  rum: RumStage | null,
): Promise<DecodeResult> {
  const { points, format, otlp, ddtrace } = parseTask(t, body)
  resolveTimes(points, t, format)
  const warnings = checkAll(points, t)
  const { echoed, sourcemaps, cdn } = await rumAndEcho(points, t, rum)
  addExtraTags(points, t.extraTags)
  const out = await runPipeline(t, points, host, warnings)
  const io = t.io ? applyIo(out.points, t.category, t.io, t.now) : null
  const kept = io ? io.points : out.points
  return {
    ok: true,
    points: kept.length,
    payload: encodeAll(kept, body.length),
    payloadRoom: PAYLOAD_ROOM,
    echo: echoed,
    warnings,
    bodyBytes: body.length,
    pipeline: out.stats,
    ...(out.agg ? { agg: out.agg } : {}),
    sourcemaps,
    ...(cdn ? { cdn } : {}),
    ...(io ? { filtered: io.filtered, retimed: io.retimed } : {}),
    ...(otlp ? { otlp } : {}),
    ...(ddtrace ? { ddtrace } : {}),
  }
}

/** `fast` false skips the byte-level transcoders (the tests compare the two paths with it). */
export async function processTask(
  t: DecodeTask,
  host: PipelineHost | null = null,
  rum: RumStage | null = null,
  fast = true,
): Promise<DecodeResult> {
  try {
    const body = await inflate(t)
    const quick = fast ? await tryTranscoder(t, body, host) : null
    return quick ?? (await generalPath(t, body, host, rum))
  } catch (e) {
    if (e instanceof FerryError) return { ok: false, error: toPayload(e) }
    const message = `decode failed unexpectedly: ${(e as Error)?.message ?? String(e)}`
    return { ok: false, error: { code: 'internalError', message } }
  }
}
