/**
 * Encodes an OTLP/JSON request (the fixtures' form) as the same request on the protobuf wire,
 * from a table of OTLP's field numbers, so one fixture tests both encodings. Test-only: the
 * agent never encodes OTLP requests (the OTLP tests and `bench:otlp` use it).
 */
import { PbWriter } from '../../src/decode/codec/pb-writer.js'

type Type =
  | 'string'
  | 'hex'
  | 'b64'
  | 'fixed64'
  | 'sfixed64'
  | 'double'
  | 'varint'
  | 'bool'
  | 'fixed32'
  | `msg:${string}`
type Spec = Record<string, [no: number, type: Type, repeated?: boolean]>

const KV: Spec = { key: [1, 'string'], value: [2, 'msg:AnyValue'] }
const SCOPE: Spec = { name: [1, 'string'], version: [2, 'string'], attributes: [3, 'msg:KV', true] }
const RESOURCE: Spec = { attributes: [1, 'msg:KV', true] }
const POINT_COMMON: Spec = { startTimeUnixNano: [2, 'fixed64'], timeUnixNano: [3, 'fixed64'] }

const SCHEMAS: Record<string, Spec> = {
  KV,
  Scope: SCOPE,
  Resource: RESOURCE,
  AnyValue: {
    stringValue: [1, 'string'],
    boolValue: [2, 'bool'],
    intValue: [3, 'varint'],
    doubleValue: [4, 'double'],
    arrayValue: [5, 'msg:Values'],
    kvlistValue: [6, 'msg:KVs'],
    bytesValue: [7, 'b64'],
  },
  Values: { values: [1, 'msg:AnyValue', true] },
  KVs: { values: [1, 'msg:KV', true] },
  TracesRequest: { resourceSpans: [1, 'msg:ResourceSpans', true] },
  ResourceSpans: {
    resource: [1, 'msg:Resource'],
    scopeSpans: [2, 'msg:ScopeSpans', true],
    schemaUrl: [3, 'string'],
  },
  ScopeSpans: { scope: [1, 'msg:Scope'], spans: [2, 'msg:Span', true], schemaUrl: [3, 'string'] },
  Span: {
    traceId: [1, 'hex'],
    spanId: [2, 'hex'],
    traceState: [3, 'string'],
    parentSpanId: [4, 'hex'],
    name: [5, 'string'],
    kind: [6, 'varint'],
    startTimeUnixNano: [7, 'fixed64'],
    endTimeUnixNano: [8, 'fixed64'],
    attributes: [9, 'msg:KV', true],
    droppedAttributesCount: [10, 'varint'],
    events: [11, 'msg:Event', true],
    droppedEventsCount: [12, 'varint'],
    links: [13, 'msg:Link', true],
    droppedLinksCount: [14, 'varint'],
    status: [15, 'msg:Status'],
    flags: [16, 'fixed32'],
  },
  Event: {
    timeUnixNano: [1, 'fixed64'],
    name: [2, 'string'],
    attributes: [3, 'msg:KV', true],
    droppedAttributesCount: [4, 'varint'],
  },
  Link: {
    traceId: [1, 'hex'],
    spanId: [2, 'hex'],
    traceState: [3, 'string'],
    attributes: [4, 'msg:KV', true],
    droppedAttributesCount: [5, 'varint'],
    flags: [6, 'fixed32'],
  },
  Status: { message: [2, 'string'], code: [3, 'varint'] },
  MetricsRequest: { resourceMetrics: [1, 'msg:ResourceMetrics', true] },
  ResourceMetrics: {
    resource: [1, 'msg:Resource'],
    scopeMetrics: [2, 'msg:ScopeMetrics', true],
    schemaUrl: [3, 'string'],
  },
  ScopeMetrics: { scope: [1, 'msg:Scope'], metrics: [2, 'msg:Metric', true] },
  Metric: {
    name: [1, 'string'],
    description: [2, 'string'],
    unit: [3, 'string'],
    gauge: [5, 'msg:Numbers'],
    sum: [7, 'msg:Numbers'],
    histogram: [9, 'msg:Histograms'],
    exponentialHistogram: [10, 'msg:ExpHistograms'],
    summary: [11, 'msg:Summaries'],
  },
  Numbers: {
    dataPoints: [1, 'msg:NumberPoint', true],
    aggregationTemporality: [2, 'varint'],
    isMonotonic: [3, 'bool'],
  },
  NumberPoint: {
    ...POINT_COMMON,
    attributes: [7, 'msg:KV', true],
    asDouble: [4, 'double'],
    asInt: [6, 'sfixed64'],
  },
  Histograms: {
    dataPoints: [1, 'msg:HistogramPoint', true],
    aggregationTemporality: [2, 'varint'],
  },
  HistogramPoint: {
    ...POINT_COMMON,
    attributes: [9, 'msg:KV', true],
    count: [4, 'fixed64'],
    sum: [5, 'double'],
    bucketCounts: [6, 'fixed64', true],
    explicitBounds: [7, 'double', true],
    min: [11, 'double'],
    max: [12, 'double'],
  },
  ExpHistograms: {
    dataPoints: [1, 'msg:ExpPoint', true],
    aggregationTemporality: [2, 'varint'],
  },
  ExpPoint: {
    ...POINT_COMMON,
    attributes: [1, 'msg:KV', true],
    count: [4, 'fixed64'],
    sum: [5, 'double'],
    min: [12, 'double'],
    max: [13, 'double'],
  },
  Summaries: { dataPoints: [1, 'msg:SummaryPoint', true] },
  SummaryPoint: {
    ...POINT_COMMON,
    attributes: [7, 'msg:KV', true],
    count: [4, 'fixed64'],
    sum: [5, 'double'],
  },
  LogsRequest: { resourceLogs: [1, 'msg:ResourceLogs', true] },
  ResourceLogs: {
    resource: [1, 'msg:Resource'],
    scopeLogs: [2, 'msg:ScopeLogs', true],
    schemaUrl: [3, 'string'],
  },
  ScopeLogs: { scope: [1, 'msg:Scope'], logRecords: [2, 'msg:LogRecord', true] },
  LogRecord: {
    timeUnixNano: [1, 'fixed64'],
    severityNumber: [2, 'varint'],
    severityText: [3, 'string'],
    body: [5, 'msg:AnyValue'],
    attributes: [6, 'msg:KV', true],
    droppedAttributesCount: [7, 'varint'],
    flags: [8, 'fixed32'],
    traceId: [9, 'hex'],
    spanId: [10, 'hex'],
    observedTimeUnixNano: [11, 'fixed64'],
  },
}

/** 8 raw little-endian bytes, written as the double with that bit pattern. */
function fixed64(w: PbWriter, v: bigint): void {
  const b = new DataView(new ArrayBuffer(8))
  b.setBigUint64(0, BigInt.asUintN(64, v), true)
  w.double(b.getFloat64(0, true))
}

function scalar(w: PbWriter, no: number, type: Type, v: unknown): void {
  switch (type) {
    case 'string':
      w.tag(no, 2)
      return w.string(String(v))
    case 'hex':
    case 'b64':
      w.tag(no, 2)
      return w.bytes(Buffer.from(String(v), type === 'hex' ? 'hex' : 'base64'))
    case 'fixed64':
    case 'sfixed64':
      w.tag(no, 1)
      return fixed64(w, BigInt(v as string))
    case 'double':
      w.tag(no, 1)
      return w.double(Number(v))
    case 'fixed32':
      throw new Error('flags are not encoded by this helper')
    default:
      w.tag(no, 0)
      return w.int64(type === 'bool' ? (v ? 1 : 0) : BigInt(v as string))
  }
}

function message(w: PbWriter, schema: string, o: Record<string, unknown>): void {
  const spec = SCHEMAS[schema]
  for (const [key, v] of Object.entries(o)) {
    const entry = spec[key]
    if (!entry || v === undefined || v === null) continue
    const [no, type, repeated] = entry
    for (const item of repeated ? (v as unknown[]) : [v]) {
      if (type.startsWith('msg:')) {
        const mark = w.begin(no)
        message(w, type.slice(4), item as Record<string, unknown>)
        w.end(mark)
      } else scalar(w, no, type, item)
    }
  }
}

export type OtlpRequest = 'TracesRequest' | 'MetricsRequest' | 'LogsRequest'

export function otlpToProto(kind: OtlpRequest, json: unknown): Uint8Array {
  const w = new PbWriter(1024)
  message(w, kind, json as Record<string, unknown>)
  return w.finish()
}
