/**
 * One trace's spans → tracing points named `ddtrace`, the reference's way. Tags: source
 * (ddtrace), service, operation (the span name), span_type (entry, local or exit from the ids
 * and services within the trace), source_type (from the span type), status (error when the
 * span's `error` is set, else ok), remote_ip, http_status_class, sampling_rate (the tracer's
 * priority), `[ddtrace.tags]` and the meta keys tags.ts selects. Fields: trace_id, span_id,
 * parent_id (ids.ts), resource (newlines as spaces), start and duration in µs, message (the
 * span as JSON without its ids and the keys taken out). The point's time is the span's start.
 * A trace the tracer marked rejected (priority 0, -1 or -3 on any span) maps to nothing.
 */
import { Kind, newPoint, type Point } from '../../shared/point.js'
import type { DdSpan, DdTrace } from './model.js'
import type { DdtraceOptions } from './options.js'
import { spanIdText, traceIdText } from './ids.js'
import { extract, type MetaSelector } from './tags.js'
import { sourceType } from './source-type.js'

export const PRIORITY_KEY = '_sampling_priority_v1'
const PRIORITY_NAMES = new Map([
  [2, 'user_keep'],
  [-1, 'user_drop'],
  [1, 'sampler_keep'],
  [0, 'sampler_drop'],
])
const REJECTED = new Set([0, -1, -3])

/** A point's keys by name: setting one replaces a tag or field of the same name. */
class Keys {
  readonly m = new Map<string, { kind: Kind | null; value: string | number }>()
  tag(k: string, v: string): void {
    this.m.set(k, { kind: null, value: v })
  }
  field(k: string, kind: Kind, v: string | number): void {
    this.m.set(k, { kind, value: v })
  }
  point(time: bigint): Point {
    const p = newPoint('ddtrace')
    p.time = time > 0n ? time : null
    for (const [key, v] of this.m)
      if (v.kind === null) p.tags.push({ key, value: String(v.value) })
      else p.fields.push({ key, kind: v.kind, value: v.value })
    return p
  }
}

interface TraceCtx {
  o: DdtraceOptions
  sel: MetaSelector
  traceId: string
  services: Map<bigint, string>
  parents: Set<bigint>
}

function spanType(s: DdSpan, c: TraceCtx): string {
  const parentService = s.parentId === 0n ? undefined : c.services.get(s.parentId)
  if (parentService === undefined || parentService !== s.service) return 'entry'
  return c.parents.has(s.spanId) ? 'local' : 'exit'
}

function sortedObject<T>(m: Map<string, T>): Record<string, T> {
  return Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

/** The span as the reference's JSON of it, ids left out; times keep every digit (bigints). */
function message(s: DdSpan, meta: Map<string, string>, metrics: Map<string, number>): string {
  const q = JSON.stringify
  return (
    `{"service":${q(s.service)},"name":${q(s.name)},"resource":${q(s.resource)},` +
    `"start":${s.start},"duration":${s.duration},"error":${s.error},` +
    `"meta":${q(sortedObject(meta))},"metrics":${q(sortedObject(metrics))},"type":${q(s.type)}}`
  )
}

function baseKeys(k: Keys, s: DdSpan, c: TraceCtx): void {
  k.tag('remote_ip', c.o.remoteIp)
  const priority = s.metrics.get(PRIORITY_KEY)
  const name = priority === undefined ? undefined : PRIORITY_NAMES.get(priority)
  if (name) k.tag('sampling_rate', name)
  k.field('trace_id', Kind.STRING, c.traceId)
  k.field('parent_id', Kind.STRING, spanIdText(s.parentId, c.o))
  k.field('span_id', Kind.STRING, spanIdText(s.spanId, c.o))
  k.tag('service', s.service)
  k.field('resource', Kind.STRING, s.resource.replaceAll('\n', ' '))
  k.tag('operation', s.name)
  k.tag('source', 'ddtrace')
  k.tag('span_type', spanType(s, c))
  k.tag('source_type', sourceType(s.type))
  k.field('start', Kind.INT, Number(s.start / 1000n))
  k.field('duration', Kind.INT, Number(s.duration / 1000n))
}

function spanPoint(s: DdSpan, c: TraceCtx): Point {
  const k = new Keys()
  baseKeys(k, s, c)
  for (const [key, v] of c.o.tags) if (!k.m.has(key)) k.tag(key, v)
  const x = extract(s, c.sel)
  for (const [key, v] of x.tags) k.tag(key, v)
  for (const [key, v] of x.fields) k.field(key, typeof v === 'string' ? Kind.STRING : Kind.FLOAT, v)
  const code = k.m.get('http_status_code')
  if (code?.kind === null && /^[1-5]/.test(String(code.value)))
    k.tag('http_status_class', `${String(code.value)[0]}xx`)
  k.tag('status', s.error !== 0 ? 'error' : 'ok')
  if (c.o.message) k.field('message', Kind.STRING, message(s, x.meta, x.metrics))
  return k.point(s.start)
}

/** True when a span of the trace carries a priority that rejects it. */
export function rejectedByTracer(trace: DdTrace): boolean {
  return trace.some((s) => {
    const p = s.metrics.get(PRIORITY_KEY)
    return p !== undefined && REJECTED.has(p)
  })
}

const TRUNCATED_KEY = '__datakit_span_truncated'

/**
 * The points of one trace. Span types are worked out over all its spans; past `traceMaxSpans`
 * the rest are cut and the last kept span says so in its meta, as the reference does.
 */
export function mapTrace(
  trace: DdTrace,
  o: DdtraceOptions,
  sel: MetaSelector,
): { points: Point[]; truncated: number } {
  const c: TraceCtx = {
    o,
    sel,
    traceId: traceIdText(trace[0], o),
    services: new Map(trace.map((s) => [s.spanId, s.service])),
    parents: new Set(trace.map((s) => s.parentId)),
  }
  const max = o.traceMaxSpans
  if (max <= 0 || trace.length <= max)
    return { points: trace.map((s) => spanPoint(s, c)), truncated: 0 }
  const kept = trace.slice(0, max)
  const last = { ...kept[max - 1], meta: new Map(kept[max - 1].meta) }
  const cut = trace.length - max
  last.meta.set(
    TRUNCATED_KEY,
    `large trace that got spans ${trace.length}, max span limit is ${max}(${cut} spans truncated)`,
  )
  kept[max - 1] = last
  return { points: kept.map((s) => spanPoint(s, c)), truncated: cut }
}
