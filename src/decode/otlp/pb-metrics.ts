/**
 * ExportMetricsServiceRequest on the protobuf wire (metrics.proto) → the model. Exemplars,
 * exponential buckets and summary quantiles are skipped: the reference's mapping reads none.
 * Repeated numbers (bucket counts, bounds) are accepted packed and unpacked, as protobuf says.
 */
import type { PbReader } from '../codec/pb-reader.js'
import { eachField, expectWire, want, keyValue, readGroups } from './pb-common.js'
import {
  emptyHistogramPoint,
  type HistogramPoint,
  type Metric,
  type MetricData,
  type NumberPoint,
  type ResourceGroup,
  type SummaryPoint,
} from './model.js'

function readNumber(r: PbReader): NumberPoint {
  const p: NumberPoint = { attributes: [], time: 0n, value: null, double: false }
  eachField(r, (f, w) => {
    if (f === 7) p.attributes.push(keyValue(want(r, w, 2).sub()))
    else if (f === 3) p.time = want(r, w, 1).fixed64()
    else if (f === 4) {
      p.value = want(r, w, 1).double()
      p.double = true
    } else if (f === 6) {
      expectWire(r, w, 1)
      const v = BigInt.asIntN(64, r.fixed64())
      p.value = v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v
      p.double = false
    } else return false
    return true
  })
  return p
}

function count(v: bigint): number | bigint {
  return v <= 9007199254740991n ? Number(v) : v
}

/** Packed (wire 2) or one-by-one (wire 1) 8-byte numbers. */
function repeated8(r: PbReader, w: number, one: (r: PbReader) => void): void {
  if (w === 1) return one(r)
  expectWire(r, w, 2)
  const sub = r.sub()
  while (!sub.done()) one(sub)
}

/** Histogram (`exp` false) and exponential histogram points share count, sum, min, max. */
function readHistogram(r: PbReader, exp: boolean): HistogramPoint {
  const p = emptyHistogramPoint()
  const [attrs, sum, min, max] = exp ? [1, 5, 12, 13] : [9, 5, 11, 12]
  eachField(r, (f, w) => {
    if (f === attrs) p.attributes.push(keyValue(want(r, w, 2).sub()))
    else if (f === 3) p.time = want(r, w, 1).fixed64()
    else if (f === 4) p.count = count(want(r, w, 1).fixed64())
    else if (f === sum) p.sum = want(r, w, 1).double()
    else if (f === min) p.min = want(r, w, 1).double()
    else if (f === max) p.max = want(r, w, 1).double()
    else if (!exp && f === 6) repeated8(r, w, (x) => p.bucketCounts.push(count(x.fixed64())))
    else if (!exp && f === 7) repeated8(r, w, (x) => p.bounds.push(x.double()))
    else return false
    return true
  })
  return p
}

function readSummary(r: PbReader): SummaryPoint {
  const p: SummaryPoint = { attributes: [], time: 0n, count: 0, sum: 0 }
  eachField(r, (f, w) => {
    if (f === 7) p.attributes.push(keyValue(want(r, w, 2).sub()))
    else if (f === 3) p.time = want(r, w, 1).fixed64()
    else if (f === 4) p.count = count(want(r, w, 1).fixed64())
    else if (f === 5) p.sum = want(r, w, 1).double()
    else return false
    return true
  })
  return p
}

/** Gauge, Sum, Histogram, ExponentialHistogram, Summary: points = 1, temporality = 2. */
function readData(r: PbReader, type: MetricData['type']): MetricData {
  const points: unknown[] = []
  let temporality = 0
  let monotonic = false
  eachField(r, (f, w) => {
    if (f === 1) {
      expectWire(r, w, 2)
      const sub = r.sub()
      if (type === 'gauge' || type === 'sum') points.push(readNumber(sub))
      else if (type === 'summary') points.push(readSummary(sub))
      else points.push(readHistogram(sub, type === 'exponential'))
    } else if (f === 2) temporality = want(r, w, 0).uvarint()
    else if (f === 3) monotonic = want(r, w, 0).bool()
    else return false
    return true
  })
  return { type, points, temporality, monotonic } as MetricData
}

const DATA_TYPES: Record<number, MetricData['type']> = {
  5: 'gauge',
  7: 'sum',
  9: 'histogram',
  10: 'exponential',
  11: 'summary',
}

export function readMetric(r: PbReader): Metric {
  const m: Metric = { name: '', description: '', unit: '', data: null }
  eachField(r, (f, w) => {
    const type = DATA_TYPES[f]
    if (f < 1 || (f > 3 && !type)) return false
    expectWire(r, w, 2)
    if (f === 1) m.name = r.string()
    else if (f === 2) m.description = r.string()
    else if (f === 3) m.unit = r.string()
    else m.data = readData(r.sub(), type)
    return true
  })
  return m
}

export function decodeMetricsPb(body: Uint8Array): ResourceGroup<Metric>[] {
  return readGroups(body, readMetric)
}
