/** OTLP/JSON traces, metrics and logs requests → the model (common rules in json-common.ts). */
import {
  anyValue,
  attributes,
  bigInt,
  enumOf,
  hexId,
  int,
  list,
  num,
  obj,
  readGroups,
  str,
  uint,
} from './json-common.js'
import {
  emptyHistogramPoint,
  emptyLog,
  emptySpan,
  type HistogramPoint,
  type LogRecord,
  type Metric,
  type MetricData,
  type NumberPoint,
  type ResourceGroup,
  type Span,
} from './model.js'

const SPAN_KINDS = [
  'SPAN_KIND_UNSPECIFIED',
  'SPAN_KIND_INTERNAL',
  'SPAN_KIND_SERVER',
  'SPAN_KIND_CLIENT',
  'SPAN_KIND_PRODUCER',
  'SPAN_KIND_CONSUMER',
]
const STATUS_CODES = ['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR']
const TEMPORALITIES = [
  'AGGREGATION_TEMPORALITY_UNSPECIFIED',
  'AGGREGATION_TEMPORALITY_DELTA',
  'AGGREGATION_TEMPORALITY_CUMULATIVE',
]

function spanEvent(e: unknown, ep: string): Span['events'][number] {
  const eo = obj(e, ep)
  return {
    time: bigInt(eo.timeUnixNano, `${ep}.timeUnixNano`),
    name: str(eo.name, `${ep}.name`),
    attributes: attributes(eo.attributes, `${ep}.attributes`),
    dropped: Number(bigInt(eo.droppedAttributesCount, ep)),
  }
}

function spanLink(l: unknown, lp: string): Span['links'][number] {
  const lo = obj(l, lp)
  return {
    traceId: hexId(lo.traceId, `${lp}.traceId`),
    spanId: hexId(lo.spanId, `${lp}.spanId`),
    traceState: str(lo.traceState, `${lp}.traceState`),
    attributes: attributes(lo.attributes, `${lp}.attributes`),
    dropped: Number(bigInt(lo.droppedAttributesCount, `${lp}.droppedAttributesCount`)),
    flags: Number(bigInt(lo.flags, `${lp}.flags`)),
  }
}

function span(v: unknown, p: string): Span {
  const o = obj(v, p)
  const s = emptySpan()
  s.traceId = hexId(o.traceId, `${p}.traceId`)
  s.spanId = hexId(o.spanId, `${p}.spanId`)
  s.parentSpanId = hexId(o.parentSpanId, `${p}.parentSpanId`)
  s.traceState = str(o.traceState, `${p}.traceState`)
  s.flags = Number(bigInt(o.flags, `${p}.flags`))
  s.name = str(o.name, `${p}.name`)
  s.kind = enumOf(o.kind, `${p}.kind`, SPAN_KINDS)
  s.start = bigInt(o.startTimeUnixNano, `${p}.startTimeUnixNano`)
  s.end = bigInt(o.endTimeUnixNano, `${p}.endTimeUnixNano`)
  s.attributes = attributes(o.attributes, `${p}.attributes`)
  s.droppedAttributes = Number(bigInt(o.droppedAttributesCount, `${p}.droppedAttributesCount`))
  s.events = list(o.events, `${p}.events`).map((e, i) => spanEvent(e, `${p}.events[${i}]`))
  s.links = list(o.links, `${p}.links`).map((l, i) => spanLink(l, `${p}.links[${i}]`))
  if (o.status !== undefined && o.status !== null) {
    const so = obj(o.status, `${p}.status`)
    s.status = {
      code: enumOf(so.code, `${p}.status.code`, STATUS_CODES),
      message: str(so.message, `${p}.status.message`),
    }
  }
  return s
}

export function decodeTracesJson(text: string): ResourceGroup<Span>[] {
  return readGroups(text, { resource: 'resourceSpans', scope: 'scopeSpans', items: 'spans' }, span)
}

function numberPoint(v: unknown, p: string): NumberPoint {
  const o = obj(v, p)
  const double = 'asDouble' in o
  const value = double
    ? num(o.asDouble, `${p}.asDouble`)
    : 'asInt' in o
      ? int(o.asInt, `${p}.asInt`)
      : null
  return {
    attributes: attributes(o.attributes, `${p}.attributes`),
    time: bigInt(o.timeUnixNano, `${p}.timeUnixNano`),
    value,
    double,
  }
}

function histogramPoint(v: unknown, p: string): HistogramPoint {
  const o = obj(v, p)
  const h = emptyHistogramPoint()
  h.attributes = attributes(o.attributes, `${p}.attributes`)
  h.time = bigInt(o.timeUnixNano, `${p}.timeUnixNano`)
  h.count = uint(o.count, `${p}.count`)
  h.sum = num(o.sum, `${p}.sum`)
  h.min = num(o.min, `${p}.min`)
  h.max = num(o.max, `${p}.max`)
  h.bucketCounts = list(o.bucketCounts, `${p}.bucketCounts`).map((c, i) =>
    uint(c, `${p}.bucketCounts[${i}]`),
  )
  h.bounds = list(o.explicitBounds, `${p}.explicitBounds`).map((b, i) =>
    num(b, `${p}.explicitBounds[${i}]`),
  )
  return h
}

const DATA_KEYS = ['gauge', 'sum', 'histogram', 'exponentialHistogram', 'summary'] as const

function metricData(o: Record<string, unknown>, p: string): MetricData | null {
  const key = DATA_KEYS.find((k) => o[k] !== undefined && o[k] !== null)
  if (!key) return null
  const d = obj(o[key], `${p}.${key}`)
  const pts = list(d.dataPoints, `${p}.${key}.dataPoints`)
  const at = (i: number) => `${p}.${key}.dataPoints[${i}]`
  const temporality = enumOf(
    d.aggregationTemporality,
    `${p}.${key}.aggregationTemporality`,
    TEMPORALITIES,
  )
  if (key === 'gauge') return { type: 'gauge', points: pts.map((x, i) => numberPoint(x, at(i))) }
  if (key === 'sum') {
    const points = pts.map((x, i) => numberPoint(x, at(i)))
    return { type: 'sum', points, temporality, monotonic: d.isMonotonic === true }
  }
  if (key === 'summary') {
    const points = pts.map((x, i) => {
      const h = histogramPoint(x, at(i))
      return { attributes: h.attributes, time: h.time, count: h.count, sum: h.sum }
    })
    return { type: 'summary', points }
  }
  const points = pts.map((x, i) => histogramPoint(x, at(i)))
  return { type: key === 'histogram' ? 'histogram' : 'exponential', points, temporality }
}

function metric(v: unknown, p: string): Metric {
  const o = obj(v, p)
  return {
    name: str(o.name, `${p}.name`),
    description: str(o.description, `${p}.description`),
    unit: str(o.unit, `${p}.unit`),
    data: metricData(o, p),
  }
}

export function decodeMetricsJson(text: string): ResourceGroup<Metric>[] {
  const keys = { resource: 'resourceMetrics', scope: 'scopeMetrics', items: 'metrics' }
  return readGroups(text, keys, metric)
}

function logRecord(v: unknown, p: string): LogRecord {
  const o = obj(v, p)
  const l = emptyLog()
  l.time = bigInt(o.timeUnixNano, `${p}.timeUnixNano`)
  l.observedTime = bigInt(o.observedTimeUnixNano, `${p}.observedTimeUnixNano`)
  l.severityNumber = enumOf(o.severityNumber, `${p}.severityNumber`)
  l.severityText = str(o.severityText, `${p}.severityText`)
  l.body = anyValue(o.body, `${p}.body`)
  l.attributes = attributes(o.attributes, `${p}.attributes`)
  l.traceId = hexId(o.traceId, `${p}.traceId`)
  l.spanId = hexId(o.spanId, `${p}.spanId`)
  l.flags = Number(bigInt(o.flags, `${p}.flags`))
  return l
}

export function decodeLogsJson(text: string): ResourceGroup<LogRecord>[] {
  const keys = { resource: 'resourceLogs', scope: 'scopeLogs', items: 'logRecords' }
  return readGroups(text, keys, logRecord)
}
