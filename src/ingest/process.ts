/**
 * One decode task, start to end: decompress, parse, resolve times, correct, echo, add global
 * tags, pipeline, IO filters and time correction (io-apply.ts), encode. Runs inside a worker; never throws (errors come back as `DecodeFailed`).
 */
import { FerryError, toPayload } from '../errors.js'
import { hasKey, type Point } from '../shared/point.js'
import { checkPoint } from '../decode/check/check.js'
import { dropEmpty, NO_FIELD } from '../decode/check/empty.js'
import { optionsFor } from '../decode/check/options.js'
import { echo } from '../decode/codec/echo.js'
import { PbWriter } from '../decode/codec/pb-writer.js'
import { encodePoint } from '../decode/codec/protobuf.js'
import { decompress } from '../decode/decompress.js'
import { decompressCapped } from '../decode/decompress-capped.js'
import { capPlain } from '../decode/point-cap.js'
import { formatOf, parseBody, type BodyFormat, type Parsed } from '../decode/parse-body.js'
import { decodeOtlp } from '../decode/otlp/decode.js'
import type { MapStats } from '../decode/otlp/stats.js'
import { decodeDdtrace } from '../decode/ddtrace/decode.js'
import type { DdtraceStats } from '../decode/ddtrace/model.js'
import { resolveTime } from '../decode/precision.js'
import { tryFast } from './fast.js'
import { tryFastOtlp } from './fast-otlp.js'
import type { DecodeResult, DecodeTask } from './protocol.js'
import type { PipelineHost } from '../pipeline/worker-host.js'
import type { Applied } from '../pipeline/apply.js'
import type { RumStage } from '../rum/stage.js'
import { addGeoTags, checkRum, resolveStacks } from './rum.js'
import { applyIo } from './io-apply.js'
import { PAYLOAD_ROOM, withRoom } from '../shared/payload-room.js'

function resolveTimes(points: Point[], t: DecodeTask, format: BodyFormat): void {
  for (let i = 0; i < points.length; i++) {
    const p = points[i]
    const time = resolveTime(p.time, t.precision, t.now)
    if (time === null) {
      const code =
        format === 'lp'
          ? 'invalidLinePoint'
          : format === 'json'
            ? 'invalidJsonPoint'
            : 'invalidProtobufPoint'
      throw new FerryError(
        code,
        `point ${i} (${p.name}): timestamp ${p.time} at precision ${t.precision ?? 'auto'} overflows int64 nanoseconds`,
      )
    }
    p.time = time
  }
}

/** Checks every point; field-less points are then dropped and counted under `no_field`. */
function checkAll(points: Point[], t: DecodeTask): Record<string, number> {
  const opts = optionsFor(t.category)
  const warnings: Record<string, number> = {}
  for (const p of points) {
    checkPoint(p, opts)
    if (!p.warns) continue
    if (t.strict)
      throw new FerryError('pointGotWarning', `${p.warns[0].type}: ${p.warns[0].message}`)
    for (const w of p.warns) warnings[w.type] = (warnings[w.type] ?? 0) + 1
  }
  countEmpty(points, warnings)
  return warnings
}

function countEmpty(points: Point[], warnings: Record<string, number>): void {
  const dropped = dropEmpty(points)
  if (dropped > 0) warnings[NO_FIELD] = (warnings[NO_FIELD] ?? 0) + dropped
}

function addExtraTags(points: Point[], extra: [string, string][]): void {
  if (extra.length === 0) return
  for (const p of points) {
    for (const [key, value] of extra) {
      if (!hasKey(p, key)) p.tags.push({ key, value })
    }
  }
}

/** The points' PBPoints bytes, with room before them (shared/payload-room.ts). */
function encodeAll(points: Point[], sizeHint: number): Uint8Array {
  const w = new PbWriter(Math.max(1024, sizeHint + (sizeHint >> 1)))
  for (const p of points) encodePoint(w, p)
  return withRoom(w.buf, w.pos)
}

/** Scripts may add, rename or retype keys: their output goes through the checks again. */
async function runPipeline(
  t: DecodeTask,
  points: Point[],
  host: PipelineHost | null,
  warnings: Record<string, number>,
): Promise<Applied> {
  if (!host || !t.pipeline) return { points, stats: [] }
  const applied = await host.apply(t.category, points, t.pipeline)
  if (applied.stats.length) {
    const opts = optionsFor(t.category)
    for (const p of applied.points) checkPoint(p, opts)
    countEmpty(applied.points, warnings)
  }
  return applied
}

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
