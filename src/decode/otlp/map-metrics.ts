/**
 * Metrics → metric points named `otel_service`, the reference's way. Tags: the resource's
 * attributes (less the SDK and process keys in attrs.ts) with remote_ip, the scope's with
 * scope_name, the data point's, and `unit`; `.` in their keys becomes `_`. Gauges and sums give
 * one field named after the metric (temporality and monotonicity are not kept, as in the
 * reference); a histogram gives `<name>_min/_max/_count/_sum` and one point per bucket with
 * `<name>_bucket` (cumulative) and an `le` tag ("+Inf" last); an exponential histogram gives
 * min, max, count, sum and `<name>_avg` (text, 3 decimals); a summary count and sum. A number
 * point without a value is rejected (partial success).
 */
import { Kind, newPoint, type Point } from '../../shared/point.js'
import { DROPPED_RESOURCE_KEYS, setField, setTag, textOf } from './attrs.js'
import type {
  HistogramPoint,
  KeyValue,
  Metric,
  NumberPoint,
  ResourceGroup,
  Scope,
} from './model.js'
import type { OtlpOptions } from './options.js'
import { limitAttrs, reject, type MapStats } from './stats.js'

type Tags = [string, string][]

interface Ctx {
  o: OtlpOptions
  stats: MapStats
}

/** The reference's attributesToTag: every value as text, SDK keys left out. */
export function attrText(kvs: readonly KeyValue[]): Tags {
  const out: Tags = []
  for (const kv of kvs) if (!DROPPED_RESOURCE_KEYS.has(kv.key)) out.push([kv.key, textOf(kv.value)])
  return out
}

function pointWith(tags: Tags, unit: string | null, time: bigint): Point {
  const p = newPoint('otel_service')
  for (const [k, v] of tags) setTag(p, k.replaceAll('.', '_'), v)
  if (unit !== null) setTag(p, 'unit', unit)
  p.time = time > 0n ? time : null
  return p
}

function numberPoints(m: Metric, pts: NumberPoint[], base: Tags, c: Ctx, out: Point[]): void {
  for (const dp of pts) {
    if (dp.value === null) {
      reject(c.stats, 1, `metric ${m.name}: a data point without a value`)
      continue
    }
    const p = pointWith([...base, ...attrText(limitAttrs(dp.attributes, c))], m.unit, dp.time)
    setField(p, m.name, dp.double ? Kind.FLOAT : Kind.INT, dp.value)
    out.push(p)
  }
}

function histogramPoints(m: Metric, pts: HistogramPoint[], base: Tags, c: Ctx, out: Point[]): void {
  for (const h of pts) {
    const tags = [...base, ...attrText(limitAttrs(h.attributes, c))]
    const p = pointWith(tags, m.unit, h.time)
    setField(p, `${m.name}_min`, Kind.FLOAT, h.min)
    setField(p, `${m.name}_max`, Kind.FLOAT, h.max)
    setField(p, `${m.name}_count`, Kind.UINT, h.count)
    setField(p, `${m.name}_sum`, Kind.FLOAT, h.sum)
    out.push(p)
    if (h.bucketCounts.length <= 1 || h.bounds.length === 0) continue
    let cumulative = 0n
    h.bucketCounts.forEach((count, i) => {
      cumulative += BigInt(count)
      const le = i < h.bounds.length ? String(h.bounds[i]) : '+Inf'
      const b = pointWith([...tags, ['le', le]], m.unit, h.time)
      const v = cumulative <= 9007199254740991n ? Number(cumulative) : cumulative
      setField(b, `${m.name}_bucket`, Kind.UINT, v)
      out.push(b)
    })
  }
}

function exponentialPoints(
  m: Metric,
  pts: HistogramPoint[],
  base: Tags,
  c: Ctx,
  out: Point[],
): void {
  for (const h of pts) {
    const p = pointWith([...base, ...attrText(limitAttrs(h.attributes, c))], m.unit, h.time)
    setField(p, `${m.name}_min`, Kind.FLOAT, h.min)
    setField(p, `${m.name}_max`, Kind.FLOAT, h.max)
    setField(p, `${m.name}_count`, Kind.UINT, h.count)
    setField(p, `${m.name}_sum`, Kind.FLOAT, h.sum)
    const n = Number(h.count)
    if (n > 0) setField(p, `${m.name}_avg`, Kind.STRING, (h.sum / n).toFixed(3))
    out.push(p)
  }
}

function metricPoints(m: Metric, base: Tags, c: Ctx, out: Point[]): void {
  const d = m.data
  if (d === null) return reject(c.stats, 1, `metric ${m.name}: no data`)
  if (d.type === 'gauge' || d.type === 'sum') return numberPoints(m, d.points, base, c, out)
  if (d.type === 'histogram') return histogramPoints(m, d.points, base, c, out)
  if (d.type === 'exponential') return exponentialPoints(m, d.points, base, c, out)
  for (const s of d.points) {
    const p = pointWith([...base, ...attrText(limitAttrs(s.attributes, c))], m.unit, s.time)
    setField(p, `${m.name}_count`, Kind.UINT, s.count)
    setField(p, `${m.name}_sum`, Kind.FLOAT, s.sum)
    out.push(p)
  }
}

function scopeTags(scope: Scope | null, c: Ctx): Tags {
  if (scope === null) return []
  return [...attrText(limitAttrs(scope.attributes, c)), ['scope_name', scope.name]]
}

export function mapMetrics(
  groups: ResourceGroup<Metric>[],
  o: OtlpOptions,
  stats: MapStats,
): Point[] {
  const c: Ctx = { o, stats }
  const out: Point[] = []
  for (const g of groups) {
    const resource: Tags = [...attrText(limitAttrs(g.attributes, c)), ['remote_ip', o.remoteIp]]
    for (const s of g.scopes) {
      const base = [...resource, ...scopeTags(s.scope, c)]
      for (const m of s.items) metricPoints(m, base, c, out)
    }
  }
  return out
}
