/**
 * Log records → logging points, the reference's way. The point is named after the resource's
 * `log.source`, else `service.name`, else `otel_logs`; tags status (from the severity number,
 * else the severity text), service (`unSetServiceName` when absent), source, host (from
 * `host.name`), remote_ip and dk_fingerprint; fields: the resource's, scope's and record's
 * attributes as text (keys with `_` for `.`), schema_url, scope_name, `[otlp.tags]`, message
 * (the body as text), trace_id and span_id (hex, "0" when absent). A body longer than
 * `log_max` characters becomes several points, 1 ms apart.
 */
import { Kind, newPoint, type Point } from '../../shared/point.js'
import { hexOf, setField, setTag, stringAttr, textOf } from './attrs.js'
import { attrText } from './map-metrics.js'
import type { AnyValue, KeyValue, LogRecord, ResourceGroup } from './model.js'
import type { OtlpOptions } from './options.js'
import { limitAttrs, type MapStats } from './stats.js'

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal']

export function statusOf(severity: number, text: string): string {
  if (severity === 0) return 'unknown'
  if (severity >= 1 && severity <= 24) return LEVELS[Math.floor((severity - 1) / 4)]
  return text
}

/** The body as text: a double with 6 decimals (Go's %f), structures as OTLP/JSON. */
function bodyText(v: AnyValue | null): string {
  if (v?.k === 'double') return v.v.toFixed(6)
  if (v?.k === 'str') return v.v
  return textOf(v)
}

function chunks(s: string, max: number): string[] {
  const chars = Array.from(s)
  if (chars.length <= max) return [s]
  const out: string[] = []
  for (let i = 0; i < chars.length; i += max) out.push(chars.slice(i, i + max).join(''))
  return out
}

interface Names {
  service: string
  source: string
  host: string
}

function namesOf(attrs: readonly KeyValue[]): Names {
  const service = stringAttr(attrs, 'service.name')
  const source = stringAttr(attrs, 'log.source') || service || 'otel_logs'
  return { service: service || 'unSetServiceName', source, host: stringAttr(attrs, 'host.name') }
}

function recordPoints(r: LogRecord, keys: [string, string][], n: Names, o: OtlpOptions): Point[] {
  const time = r.time > 0n ? r.time : r.observedTime
  return chunks(bodyText(r.body), Math.max(1, o.logMaxChars)).map((msg, i) => {
    const p = newPoint(n.source)
    for (const [k, v] of keys) setField(p, k.replaceAll('.', '_'), Kind.STRING, v)
    for (const [k, v] of o.tags) setField(p, k, Kind.STRING, v)
    setField(p, 'message', Kind.STRING, msg)
    setField(p, 'span_id', Kind.STRING, hexOf(r.spanId))
    setField(p, 'trace_id', Kind.STRING, hexOf(r.traceId))
    setTag(p, 'status', statusOf(r.severityNumber, r.severityText))
    setTag(p, 'service', n.service)
    setTag(p, 'source', n.source)
    setTag(p, 'remote_ip', o.remoteIp)
    if (o.fingerprint) setTag(p, 'dk_fingerprint', o.fingerprint)
    if (n.host) setTag(p, 'host', n.host)
    p.time = time > 0n ? time + BigInt(i) * 1_000_000n : null
    return p
  })
}

export function mapLogs(
  groups: ResourceGroup<LogRecord>[],
  o: OtlpOptions,
  stats: MapStats,
): Point[] {
  const c = { o, stats }
  const out: Point[] = []
  for (const g of groups) {
    const attrs = limitAttrs(g.attributes, c)
    const names = namesOf(attrs)
    const resource: [string, string][] = [...attrText(attrs), ['schema_url', g.schemaUrl]]
    for (const s of g.scopes) {
      const scope: [string, string][] = [
        ...attrText(limitAttrs(s.scope?.attributes ?? [], c)),
        ['scope_name', s.scope?.name ?? ''],
      ]
      for (const r of s.items) {
        const keys = [...resource, ...scope, ...attrText(limitAttrs(r.attributes, c))]
        out.push(...recordPoints(r, keys, names, o))
      }
    }
  }
  return out
}
