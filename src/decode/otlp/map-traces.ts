/**
 * Spans → tracing points, the reference's way: one point per span named `opentelemetry`, with
 * tags source, service, status (ok/error/info from the span status), span_type (entry, local,
 * exit from the ids within the request), span_kind, source_type, remote_ip, dk_fingerprint and
 * `operation` (the span name), and fields trace_id, span_id, parent_id (hex, "0" when absent),
 * resource (the span name), start and duration (µs) and message (the span's remaining
 * attributes, events and links as OTLP/JSON). Public attributes (attrs.ts) of the resource,
 * scope, span and events become typed fields, `http_status_code` a tag; an `exception` event
 * becomes error_type, error_message and error_stack. `service.name` and `runtime_id` are taken
 * from the resource (or the first span) and left out of the message, as the reference's
 * `clean_message` does.
 */
import { Kind, newPoint, type Point } from '../../shared/point.js'
import {
  fieldOf,
  hexOf,
  makeSelector,
  selectedKey,
  setField,
  setTag,
  stringAttr,
  type Selector,
} from './attrs.js'
import type { KeyValue, ResourceGroup, Scope, Span } from './model.js'
import type { OtlpOptions } from './options.js'
import { messageOf } from './message.js'
import { closedGroup, compileCloseResource, type CloseResource } from './close-resource.js'
import { limitAttrs, type MapStats } from './stats.js'
import { SPAN_KINDS, sourceType } from './span-vocab.js'

const EXCEPTION_KEYS: [string, string][] = [
  ['exception.type', 'error_type'],
  ['exception.message', 'error_message'],
  ['exception.stacktrace', 'error_stack'],
]

interface Ctx {
  o: OtlpOptions
  sel: Selector
  stats: MapStats
  spanIds: Set<string>
  parentIds: Set<string>
  close: CloseResource[]
}

/** A span's ids as hex, computed once per span (span_type needs every id of the request first). */
interface Ids {
  trace: string
  span: string
  parent: string
}

function statusOf(s: Span['status']): string {
  if (s === null) return 'info'
  return s.code === 2 ? 'error' : s.code === 0 || s.code === 1 ? 'ok' : 'info'
}

function spanType(spanId: string, parentId: string, c: Ctx): string {
  if (parentId === '0' || !c.spanIds.has(parentId)) return 'entry'
  return c.parentIds.has(spanId) ? 'local' : 'exit'
}

/** Selected attributes become keys of the point; the others are returned for the message. */
function select(p: Point, kvs: readonly KeyValue[], c: Ctx): KeyValue[] {
  const rest: KeyValue[] = []
  for (const kv of kvs) {
    const key = selectedKey(kv.key, c.sel)
    if (key === '') {
      rest.push(kv)
      continue
    }
    const v = kv.value
    if (key === 'http_status_code' && v?.k === 'int') setTag(p, key, String(v.v))
    else {
      const f = fieldOf(v)
      if (f) setField(p, key, f.kind, f.value)
    }
  }
  return rest
}

/** The first `exception` event's attributes as error fields; that event leaves the message. */
function takeException(p: Point, span: Span): Span['events'] {
  const i = span.events.findIndex((e) => e.name === 'exception')
  if (i < 0) return span.events
  for (const [key, alias] of EXCEPTION_KEYS) {
    const kv = span.events[i].attributes.find((a) => a.key === key)
    if (kv) setField(p, alias, Kind.STRING, kv.value?.k === 'str' ? kv.value.v : '')
  }
  return span.events.filter((_, j) => j !== i)
}

function splitService(p: Point, attrs: KeyValue[], service: string, c: Ctx): KeyValue[] {
  if (!c.o.splitServiceName) return attrs
  const i = attrs.findIndex(
    (a) =>
      (a.key === 'db.system' || a.key === 'rpc.system' || a.key === 'messaging.system') &&
      a.value?.k === 'str' &&
      a.value.v !== '',
  )
  if (i < 0) return attrs
  setTag(p, 'service', (attrs[i].value as { v: string }).v)
  setTag(p, 'base_service', service)
  return attrs.filter((_, j) => j !== i)
}

function dbHost(attrs: readonly KeyValue[]): string {
  if (!attrs.some((a) => a.key === 'db.system')) return ''
  const kv = attrs.find((a) => a.key === 'net.peer.name' || a.key === 'server.address')
  return kv?.value?.k === 'str' ? kv.value.v : ''
}

/** The first keys of a new point, all distinct: pushed as they are, with nothing to replace. */
function baseKeys(p: Point, span: Span, ids: Ids, service: string, c: Ctx): void {
  p.fields.push(
    { key: 'trace_id', kind: Kind.STRING, value: ids.trace },
    { key: 'parent_id', kind: Kind.STRING, value: ids.parent },
    { key: 'span_id', kind: Kind.STRING, value: ids.span },
    { key: 'resource', kind: Kind.STRING, value: span.name },
    { key: 'start', kind: Kind.INT, value: Number(span.start / 1000n) },
    { key: 'duration', kind: Kind.INT, value: Number((span.end - span.start) / 1000n) },
  )
  p.tags.push(
    { key: 'status', value: statusOf(span.status) },
    { key: 'span_type', value: spanType(ids.span, ids.parent, c) },
  )
  if (c.o.fingerprint) p.tags.push({ key: 'dk_fingerprint', value: c.o.fingerprint })
  p.tags.push(
    { key: 'source', value: 'opentelemetry' },
    { key: 'service', value: service },
    { key: 'operation', value: span.name },
    { key: 'remote_ip', value: c.o.remoteIp },
  )
}

interface GroupInfo {
  service: string
  runtimeId: string
  attributes: KeyValue[]
}

function spanPoint(span: Span, ids: Ids, g: GroupInfo, scope: Scope | null, c: Ctx): Point {
  const p = newPoint('opentelemetry')
  p.time = span.start > 0n ? span.start : null
  baseKeys(p, span, ids, g.service, c)
  let attrs = limitAttrs(span.attributes, c)
  attrs = splitService(p, attrs, g.service, c)
  for (const [k, v] of c.o.tags) setTag(p, k, v)
  let runtimeId = g.runtimeId
  if (!runtimeId) {
    runtimeId = stringAttr(attrs, 'runtime_id')
    if (runtimeId) attrs = attrs.filter((a) => a.key !== 'runtime_id')
  }
  if (runtimeId) {
    setField(p, 'runtime-id', Kind.STRING, runtimeId)
    setField(p, 'runtime_id', Kind.STRING, runtimeId)
  }
  const events = takeException(p, span)
  if (span.kind >= 0 && span.kind < SPAN_KINDS.length) setTag(p, 'span_kind', SPAN_KINDS[span.kind])
  const traceAttr: KeyValue = { key: 'trace_id', value: { k: 'str', v: ids.trace } }
  const rest = [
    ...select(p, g.attributes, c),
    ...select(p, limitAttrs(scope?.attributes ?? [], c), c),
    ...select(p, [...attrs, traceAttr], c),
  ]
  for (const e of events) rest.push(...select(p, limitAttrs(e.attributes, c), c))
  const host = dbHost(attrs)
  if (host) setTag(p, 'db_host', host)
  setTag(p, 'source_type', sourceType(p))
  if (c.o.message) setField(p, 'message', Kind.STRING, messageOf(span, rest, events))
  return p
}

function groupInfo(g: ResourceGroup<Span>, c: Ctx): GroupInfo {
  const attrs = limitAttrs(g.attributes, c)
  const service = stringAttr(attrs, 'service.name') || 'unknown_service'
  const runtimeId = stringAttr(attrs, 'runtime_id')
  const attributes = attrs.filter((a) => a.key !== 'service.name' && a.key !== 'runtime_id')
  return { service, runtimeId, attributes }
}

export function mapTraces(groups: ResourceGroup<Span>[], o: OtlpOptions, stats: MapStats): Point[] {
  const c: Ctx = {
    o,
    sel: makeSelector(o.customerTags, o.customerTagsAll),
    stats,
    spanIds: new Set(),
    parentIds: new Set(),
    close: compileCloseResource(o.closeResource),
  }
  const ids: Ids[] = []
  for (const g of groups)
    for (const s of g.scopes)
      for (const span of s.items) {
        const id = {
          trace: hexOf(span.traceId),
          span: hexOf(span.spanId),
          parent: hexOf(span.parentSpanId),
        }
        ids.push(id)
        c.spanIds.add(id.span)
        c.parentIds.add(id.parent)
      }
  const points: Point[] = []
  let at = 0
  for (const g of groups) {
    const info = groupInfo(g, c)
    const group: Point[] = []
    for (const s of g.scopes)
      for (const span of s.items) group.push(spanPoint(span, ids[at++], info, s.scope, c))
    if (closedGroup(group, c.close)) stats.closed += group.length
    else points.push(...group)
  }
  return points
}
