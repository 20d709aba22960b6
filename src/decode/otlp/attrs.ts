/**
 * Attributes as the reference's `opentelemetry` input sees them: which span attributes become
 * keys of the point (its public table, `customer_tags`, `customer_tags_all`), how a value is
 * rendered as text for metric and log keys, and the OTLP/JSON form of values kept in a span's
 * `message`. Keys taken from attributes have `.` replaced by `_`.
 */
import { Kind, type Point, type Scalar } from '../../shared/point.js'
import type { AnyValue, KeyValue } from './model.js'

/** The reference's public span attributes and the keys they become. */
export const PUB_ATTRS: Readonly<Record<string, string>> = {
  'db.system': 'db_system',
  'db.operation': 'db_operation',
  'db.name': 'db_name',
  'db.statement': 'db_statement',
  'server.address': 'server_address',
  'net.host.name': 'net_host_name',
  'server.port': 'server_port',
  'net.host.port': 'net_host_port',
  'network.peer.address': 'network_peer_address',
  'network.peer.port': 'network_peer_port',
  'network.transport': 'network_transport',
  'http.request.method': 'http_method',
  'http.method': 'http_method',
  'error.type': 'error_type',
  'http.response.status_code': 'http_status_code',
  'http.status_code': 'http_status_code',
  'http.route': 'http_route',
  'http.target': 'http_target',
  'http.scheme': 'http_scheme',
  'http.url': 'http_url',
  'url.full': 'url_full',
  'url.scheme': 'url_scheme',
  'url.path': 'url_path',
  'url.query': 'url_query',
  'client.address': 'client_address',
  'client.port': 'client_port',
  'messaging.system': 'messaging_system',
  'messaging.operation': 'messaging_operation',
  'messaging.message.id': 'messaging_message.id',
  'messaging.destination.name': 'messaging_destination.name',
  'rpc.service': 'rpc_service',
  'rpc.system': 'rpc_system',
  exception: 'exception',
  'exception.type': 'exception_type',
  'exception.message': 'exception_message',
  'exception.stacktrace': 'exception_stacktrace',
  'container.name': 'container_name',
  'process.pid': 'process_pid',
  project: 'project',
  version: 'version',
  env: 'env',
  host: 'host',
  pod_name: 'pod_name',
  pod_namespace: 'pod_namespace',
}

/** Resource attributes the reference leaves out of metric tags (and log keys). */
export const DROPPED_RESOURCE_KEYS = new Set([
  'process.command_line',
  'process.executable.path',
  'process.runtime.description',
  'process.runtime.name',
  'process.runtime.version',
  'telemetry.distro.name',
  'telemetry.distro.version',
  'telemetry.sdk.language',
  'telemetry.sdk.name',
  'telemetry.sdk.version',
])

/** Longest text a metric tag or log key keeps from a string attribute (the reference's 32 KiB). */
export const MAX_ATTR_TEXT = 32 * 1024

export interface Selector {
  /** Exact keys selected besides the public table (`customer_tags` without `reg:`). */
  keys: ReadonlySet<string>
  patterns: readonly RegExp[]
  all: boolean
}

export function makeSelector(customerTags: readonly string[], all: boolean): Selector {
  const keys = new Set<string>()
  const patterns: RegExp[] = []
  for (const t of customerTags) {
    if (t.startsWith('reg:')) patterns.push(new RegExp(t.slice(4)))
    else keys.add(t)
  }
  return { keys, patterns, all }
}

/** The key an attribute becomes, or '' when it stays in the span's message. */
export function selectedKey(key: string, s: Selector): string {
  const pub = PUB_ATTRS[key]
  if (pub !== undefined) return pub
  if (s.all || s.keys.has(key) || s.patterns.some((re) => re.test(key)))
    return key.replaceAll('.', '_')
  return ''
}

/** An attribute's OTLP/JSON value, as kept in `message` (ids and times as OTLP/JSON has them). */
export function jsonValue(v: AnyValue | null): unknown {
  if (v === null) return {}
  switch (v.k) {
    case 'str':
      return { stringValue: v.v }
    case 'bool':
      return { boolValue: v.v }
    case 'int':
      return { intValue: String(v.v) }
    case 'double':
      return { doubleValue: Number.isFinite(v.v) ? v.v : String(v.v) }
    case 'bytes':
      return { bytesValue: Buffer.from(v.v).toString('base64') }
    case 'array':
      return { arrayValue: { values: v.v.map(jsonValue) } }
    default:
      return { kvlistValue: { values: jsonAttrs(v.v) } }
  }
}

export function jsonAttrs(kvs: readonly KeyValue[]): unknown[] {
  return kvs.map((kv) => ({ key: kv.key, value: jsonValue(kv.value) }))
}

/**
 * `JSON.stringify(jsonAttrs(kvs))`, written without the objects for the common values (a span's
 * message holds a few per span): the same text, since JSON.stringify of an object is the
 * concatenation of its members' texts.
 */
export function jsonAttrsText(kvs: readonly KeyValue[]): string {
  let out = '['
  for (let i = 0; i < kvs.length; i++) {
    const v = kvs[i].value
    let value: string
    if (v?.k === 'str') value = `{"stringValue":${JSON.stringify(v.v)}}`
    else if (v?.k === 'int') value = `{"intValue":"${v.v}"}`
    else if (v?.k === 'bool') value = `{"boolValue":${v.v}}`
    else value = JSON.stringify(jsonValue(v))
    out += `${i ? ',' : ''}{"key":${JSON.stringify(kvs[i].key)},"value":${value}}`
  }
  return `${out}]`
}

/** A value as one line of text (metric tags, log keys): doubles with 3 decimals, as the reference. */
export function textOf(v: AnyValue | null): string {
  if (v === null) return ''
  switch (v.k) {
    case 'str':
      return v.v.length > MAX_ATTR_TEXT ? v.v.slice(0, MAX_ATTR_TEXT) : v.v
    case 'bytes':
      return Buffer.from(v.v).toString('utf8', 0, MAX_ATTR_TEXT)
    case 'double':
      return v.v.toFixed(3)
    case 'int':
    case 'bool':
      return String(v.v)
    default:
      return JSON.stringify(jsonValue(v))
  }
}

/** The typed field a selected span attribute becomes. */
export function fieldOf(v: AnyValue | null): { kind: Kind; value: Scalar } | null {
  if (v === null) return null
  switch (v.k) {
    case 'str':
      return { kind: Kind.STRING, value: v.v }
    case 'bytes':
      return { kind: Kind.STRING, value: Buffer.from(v.v).toString('utf8') }
    case 'double':
      return { kind: Kind.FLOAT, value: v.v }
    case 'int':
      return { kind: Kind.INT, value: v.v }
    case 'bool':
      return { kind: Kind.BOOL, value: v.v }
    default:
      return { kind: Kind.STRING, value: JSON.stringify(jsonValue(v)) }
  }
}

export function stringAttr(kvs: readonly KeyValue[], key: string): string {
  for (const kv of kvs) if (kv.key === key && kv.value?.k === 'str') return kv.value.v
  return ''
}

/** Sets a tag, replacing any tag or field of that key (later keys win, as the reference's Set). */
export function setTag(p: Point, key: string, value: string): void {
  removeKey(p, key)
  p.tags.push({ key, value })
}

export function setField(p: Point, key: string, kind: Kind, value: Scalar): void {
  removeKey(p, key)
  p.fields.push({ key, kind, value })
}

function removeKey(p: Point, key: string): void {
  const t = p.tags.findIndex((x) => x.key === key)
  if (t >= 0) p.tags.splice(t, 1)
  const f = p.fields.findIndex((x) => x.key === key)
  if (f >= 0) p.fields.splice(f, 1)
}

export function hexOf(id: Uint8Array): string {
  // The reference writes an absent id as "0". A view, not a copy: ids are read once per span.
  if (id.length === 0) return '0'
  return Buffer.from(id.buffer, id.byteOffset, id.byteLength).toString('hex')
}
