/**
 * Parsed families to points, by the reference agent's rules: the measurement is the metric
 * name's first `_` segment and the field the rest (or `measurement_name` and the full name);
 * counters, gauges and untyped samples are one field each; a histogram gives `<f>_count` and
 * `<f>_sum` on one point and `<f>_bucket` per bucket with an `le` tag; a summary gives
 * `<f>_count`, `<f>_sum` and `<f>` per quantile with a `quantile` tag. Values are floats.
 */
import type { Point } from '../../shared/point.js'
import { PointBuilder } from '../point-builder.js'
import { parseValue, type Family, type Sample } from './parse.js'

export interface MapOptions {
  metricTypes: string[]
  metricNameFilter: RegExp[]
  metricNameFilterIgnore: RegExp[]
  measurementPrefix: string
  measurementName: string
  keepExistMetricName: boolean
  honorTimestamps: boolean
  tagsIgnore: string[]
  tagsRename: { mapping: Record<string, string>; overwrite: boolean }
  disableInfoTag: boolean
  /** Added to every point before the labels (the scrape's `instance`). */
  extraTags: [string, string][]
}

/** Go's `fmt.Sprint(float64)`, which the reference uses for `le` and `quantile` values. */
export function goFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN'
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf'
  if (v === 0) return Object.is(v, -0) ? '-0' : '0'
  const [mant, e] = v.toExponential().split('e') as [string, string]
  const exp = Number(e)
  if (exp >= -4 && exp < 6) return String(v)
  const digits = String(Math.abs(exp)).padStart(2, '0')
  return `${mant}e${exp < 0 ? '-' : '+'}${digits}`
}

/** [measurement, field] for a metric name. */
export function names(name: string, o: MapOptions): [string, string] {
  const [m, f] = o.measurementName ? [o.measurementName, name] : splitName(name, o)
  return [o.measurementPrefix + (m || 'prom'), f]
}

function splitName(name: string, o: MapOptions): [string, string] {
  const start = name.search(/[^_]/)
  if (start === -1 || start === name.length - 1) return ['unknown', 'unknown']
  const n = name.slice(start)
  const i = n.indexOf('_')
  if (i === -1) return [n, n]
  if (i === n.length - 1) return [n.slice(0, i), n.slice(0, i)]
  return [n.slice(0, i), o.keepExistMetricName ? n : n.slice(i + 1)]
}

function wanted(f: Family, o: MapOptions): boolean {
  if (o.metricNameFilterIgnore.some((r) => r.test(f.name))) return false
  if (o.metricNameFilter.length && !o.metricNameFilter.some((r) => r.test(f.name))) return false
  return !o.metricTypes.length || o.metricTypes.some((t) => t.toLowerCase() === f.type)
}

class Mapper {
  readonly out: Point[] = []
  constructor(
    private o: MapOptions,
    private now: bigint,
    private info: [string, string][],
  ) {}

  private tags(s: Sample, extra?: [string, string]): Map<string, string> {
    const t = new Map<string, string>([...this.info, ...this.o.extraTags, ...s.labels])
    if (extra) t.set(...extra)
    for (const k of this.o.tagsIgnore) t.delete(k)
    for (const [from, to] of Object.entries(this.o.tagsRename.mapping)) {
      const v = t.get(from)
      if (v === undefined || (t.has(to) && !this.o.tagsRename.overwrite)) continue
      t.delete(from)
      t.set(to, v)
    }
    return t
  }

  point(measurement: string, s: Sample, extra?: [string, string]): PointBuilder {
    const time =
      this.o.honorTimestamps && s.timestampMs && s.timestampMs > 0
        ? BigInt(s.timestampMs) * 1_000_000n
        : this.now
    const b = new PointBuilder(measurement, time)
    for (const [k, v] of this.tags(s, extra)) b.tag(k, v)
    this.out.push(b.point)
    return b
  }
}

/** Histogram and summary samples of one family, grouped by their labels (less le/quantile). */
function groups(f: Family, skip: string): Map<string, Sample[]> {
  const g = new Map<string, Sample[]>()
  for (const s of f.samples) {
    const key = JSON.stringify(s.labels.filter(([k]) => k !== skip))
    g.set(key, [...(g.get(key) ?? []), s])
  }
  return g
}

function mapComplex(m: Mapper, f: Family, o: MapOptions): void {
  const [meas, field] = names(f.name, o)
  const extra = f.type === 'histogram' ? 'le' : 'quantile'
  for (const samples of groups(f, extra).values()) {
    const base = samples.find((s) => !s.labels.some(([k]) => k === extra)) ?? samples[0]!
    const common = { ...base, labels: base.labels.filter(([k]) => k !== extra) }
    const sum = samples.find((s) => s.name === `${f.name}_sum`)
    const count = samples.find((s) => s.name === `${f.name}_count`)
    m.point(meas, { ...common, timestampMs: undefined })
      .float(`${field}_count`, count?.value ?? 0)
      .float(`${field}_sum`, sum?.value ?? 0)
    for (const s of samples) {
      const bound = s.labels.find(([k]) => k === extra)
      if (!bound || s.name.endsWith('_sum') || s.name.endsWith('_count')) continue
      if (Number.isNaN(s.value)) continue
      const tag: [string, string] = [extra, goFloat(parseValue(bound[1]) ?? NaN)]
      m.point(meas, { ...s, labels: common.labels }, tag).float(
        f.type === 'histogram' ? `${field}_bucket` : field,
        s.value,
      )
    }
  }
}

export function toPoints(families: Family[], now: bigint, o: MapOptions): Point[] {
  const info = o.disableInfoTag
    ? []
    : families
        .filter((f) => f.type === 'info' && wanted(f, o))
        .flatMap((f) => f.samples.flatMap((s) => s.labels))
  const m = new Mapper(o, now, info)
  for (const f of families) {
    if (!wanted(f, o) || f.type === 'info') continue
    if (f.type === 'histogram' || f.type === 'summary') {
      mapComplex(m, f, o)
      continue
    }
    for (const s of f.samples) {
      if (!Number.isFinite(s.value) || s.name.endsWith('_created')) continue
      const [meas, field] = names(s.name, o)
      m.point(meas, s).float(field, s.value)
    }
  }
  return m.out
}
