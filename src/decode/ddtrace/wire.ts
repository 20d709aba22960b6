/**
 * A tracer's request body → traces, by route and Content-Type as the reference reads them:
 * v0.5 is always msgpack with a string table (`[[strings...], [[span...]...]]`); v0.3 and v0.4
 * are msgpack when the type says `application/msgpack`, JSON when it says JSON or nothing, and
 * JSON then msgpack for any other type. Every body passes the guard (guard.ts) first. v0.5
 * traces are merged by trace id (a tracer may send one trace in several chunks), in the order
 * they first appear.
 */
import { Decoder } from '@msgpack/msgpack'
import { FerryError } from '../../errors.js'
import { guardJson, guardMsgpack, type GuardLimits } from './guard.js'
import type { DdTrace, DdtraceVersion } from './model.js'
import { DdShapeError, list, spanOfArray, tracesOfMaps } from './span.js'

function invalid(what: string, e: unknown): FerryError {
  return new FerryError('invalidDdtrace', `invalid ddtrace ${what}: ${(e as Error).message}`)
}

// One decoder per string limit, reused (decoding is synchronous, so never re-entered): it keeps
// its buffers and key cache between requests.
let decoder: { max: number; d: Decoder } | null = null

function decoderFor(max: number): Decoder {
  if (decoder?.max !== max)
    decoder = { max, d: new Decoder({ useBigInt64: true, maxStrLength: max }) }
  return decoder.d
}

function fromMsgpack(body: Uint8Array, l: GuardLimits): unknown {
  guardMsgpack(body, l)
  try {
    return decoderFor(l.maxStringBytes).decode(body)
  } catch (e) {
    throw invalid('msgpack', e)
  }
}

// JSON numbers lose digits past 2^53: ids and times are read as their digits instead.
const BIG_KEYS = /"(trace_id|span_id|parent_id|start|duration)"(\s*):(\s*)(-?\d+)(?=\s*[,}])/g

function fromJson(body: Uint8Array, l: GuardLimits): unknown {
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')
  guardJson(text, l)
  try {
    return JSON.parse(text.replace(BIG_KEYS, '"$1"$2:$3"$4"'))
  } catch (e) {
    throw invalid('JSON', e)
  }
}

function mediaType(contentType: string): string {
  return contentType.split(';')[0].trim().toLowerCase()
}

function bodyValue(version: DdtraceVersion, contentType: string, b: Uint8Array, l: GuardLimits) {
  if (version === 'v0.5') return fromMsgpack(b, l)
  const ct = mediaType(contentType)
  if (ct === 'application/msgpack') return fromMsgpack(b, l)
  if (ct === 'application/json' || ct === 'text/json' || ct === '') return fromJson(b, l)
  try {
    return fromJson(b, l)
  } catch {
    return fromMsgpack(b, l)
  }
}

function mergeById(traces: DdTrace[]): DdTrace[] {
  const byId = new Map<bigint, DdTrace>()
  for (const t of traces) {
    if (t.length === 0) continue
    const merged = byId.get(t[0].traceId)
    if (merged) merged.push(...t)
    else byId.set(t[0].traceId, t)
  }
  return [...byId.values()]
}

function v05(v: unknown): DdTrace[] {
  const top = list(v, 'payload')
  if (top.length !== 2) throw new DdShapeError('payload: must be [strings, traces]')
  const dict = list(top[0], 'strings').map((s, i) => {
    if (typeof s !== 'string') throw new DdShapeError(`strings[${i}]: must be a string`)
    return s
  })
  const traces = list(top[1], 'traces').map((t, i) =>
    list(t, `traces[${i}]`).map((s, j) => spanOfArray(dict, s, `traces[${i}][${j}]`)),
  )
  return mergeById(traces)
}

export function decodeTraces(
  version: DdtraceVersion,
  contentType: string,
  body: Uint8Array,
  l: GuardLimits,
): DdTrace[] {
  const v = bodyValue(version, contentType, body, l)
  try {
    return version === 'v0.5' ? v05(v) : tracesOfMaps(v)
  } catch (e) {
    if (e instanceof DdShapeError) throw invalid(`${version} request`, e)
    throw e
  }
}
