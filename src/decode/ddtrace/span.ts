/**
 * Decoded values → spans: the one place that says what each span key must hold. v0.3 and v0.4
 * spans are maps (JSON objects or msgpack maps) keyed by name; v0.5 spans are arrays of 12
 * values whose strings are indexes into the request's string table. Keys a span may carry
 * besides the 12 (meta_struct, span_links, span_events) are not read. A value of the wrong
 * type fails the request (`DdShapeError`, answered 400 `invalidDdtrace`) with its path.
 */
import { emptyDdSpan, type DdSpan, type DdTrace } from './model.js'

export class DdShapeError extends Error {}

function bad(path: string, what: string): DdShapeError {
  return new DdShapeError(`${path}: ${what}`)
}

const INTEGER = /^-?\d{1,20}$/

/** An integer as msgpack (number or bigint) or JSON (a number or, for ids, its digits) has it. */
function integer(v: unknown, path: string): bigint {
  if (v === null || v === undefined) return 0n
  if (typeof v === 'bigint') return v
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v)
  if (typeof v === 'string' && INTEGER.test(v)) return BigInt(v)
  throw bad(path, 'must be an integer')
}

const u64 = (v: unknown, path: string) => BigInt.asUintN(64, integer(v, path))
const i64 = (v: unknown, path: string) => BigInt.asIntN(64, integer(v, path))

function str(v: unknown, path: string): string {
  if (v === null || v === undefined) return ''
  if (typeof v !== 'string') throw bad(path, 'must be a string')
  return v
}

function num(v: unknown, path: string): number {
  if (typeof v === 'number') return v
  if (typeof v === 'bigint') return Number(v)
  if (typeof v === 'string' && INTEGER.test(v)) return Number(v)
  throw bad(path, 'must be a number')
}

function object(v: unknown, path: string): Record<string, unknown> | null {
  if (v === null || v === undefined) return null
  if (typeof v !== 'object' || Array.isArray(v) || v instanceof Uint8Array)
    throw bad(path, 'must be a map')
  return v as Record<string, unknown>
}

export function list(v: unknown, path: string): unknown[] {
  if (!Array.isArray(v)) throw bad(path, 'must be an array')
  return v
}

function meta(v: unknown, path: string): Map<string, string> {
  const m = new Map<string, string>()
  const o = object(v, path)
  if (o) for (const k of Object.keys(o)) m.set(k, str(o[k], `${path}.${k}`))
  return m
}

function metrics(v: unknown, path: string): Map<string, number> {
  const m = new Map<string, number>()
  const o = object(v, path)
  if (o) for (const k of Object.keys(o)) m.set(k, num(o[k], `${path}.${k}`))
  return m
}

/** A v0.3/v0.4 span: a map of the span's keys. */
export function spanOfMap(v: unknown, path: string): DdSpan {
  const o = object(v, path) ?? {}
  const s = emptyDdSpan()
  s.service = str(o.service, `${path}.service`)
  s.name = str(o.name, `${path}.name`)
  s.resource = str(o.resource, `${path}.resource`)
  s.traceId = u64(o.trace_id, `${path}.trace_id`)
  s.spanId = u64(o.span_id, `${path}.span_id`)
  s.parentId = u64(o.parent_id, `${path}.parent_id`)
  s.start = i64(o.start, `${path}.start`)
  s.duration = i64(o.duration, `${path}.duration`)
  s.error = Number(BigInt.asIntN(32, integer(o.error, `${path}.error`)))
  s.meta = meta(o.meta, `${path}.meta`)
  s.metrics = metrics(o.metrics, `${path}.metrics`)
  s.type = str(o.type, `${path}.type`)
  return s
}

/** v0.3/v0.4: an array of traces, each an array of spans. */
export function tracesOfMaps(v: unknown): DdTrace[] {
  return list(v, 'traces').map((t, i) =>
    list(t, `traces[${i}]`).map((s, j) => spanOfMap(s, `traces[${i}][${j}]`)),
  )
}

function indexed(dict: string[], v: unknown, path: string): string {
  const i = integer(v, path)
  if (i < 0n || i >= BigInt(dict.length))
    throw bad(path, `string index ${i} outside the table of ${dict.length}`)
  return dict[Number(i)]
}

function indexedMap<T>(
  dict: string[],
  v: unknown,
  path: string,
  value: (x: unknown, p: string) => T,
): Map<string, T> {
  const m = new Map<string, T>()
  const o = object(v, path)
  // msgpack map keys are decoded as JS object keys: a v0.5 key index arrives as its digits.
  if (o) for (const k of Object.keys(o)) m.set(indexed(dict, k, `${path}.${k}`), value(o[k], k))
  return m
}

/**
 * A v0.5 span: [service, name, resource, trace_id, span_id, parent_id, start, duration, error,
 * meta, metrics, type].
 */
export function spanOfArray(dict: string[], v: unknown, path: string): DdSpan {
  const a = list(v, path)
  if (a.length !== 12) throw bad(path, 'a v0.5 span holds exactly 12 values')
  const s = emptyDdSpan()
  s.service = indexed(dict, a[0], `${path}[0]`)
  s.name = indexed(dict, a[1], `${path}[1]`)
  s.resource = indexed(dict, a[2], `${path}[2]`)
  s.traceId = u64(a[3], `${path}[3]`)
  s.spanId = u64(a[4], `${path}[4]`)
  s.parentId = u64(a[5], `${path}[5]`)
  s.start = i64(a[6], `${path}[6]`)
  s.duration = i64(a[7], `${path}[7]`)
  s.error = Number(BigInt.asIntN(32, integer(a[8], `${path}[8]`)))
  s.meta = indexedMap(dict, a[9], `${path}[9]`, (x, k) => indexed(dict, x, `${path}[9].${k}`))
  s.metrics = indexedMap(dict, a[10], `${path}[10]`, (x, k) => num(x, `${path}[10].${k}`))
  s.type = indexed(dict, a[11], `${path}[11]`)
  return s
}
