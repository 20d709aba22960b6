/**
 * The OTLP messages as plain objects, the one shape both wire formats decode to (protobuf in
 * pb-*.ts, JSON in json-*.ts) and the mapping to points reads (map-*.ts).
 *
 * Invariants: ids are raw bytes (JSON's hex is decoded); times are nanoseconds as bigints; a
 * message or value absent on the wire is `null`, a repeated field absent is `[]`.
 */
export type AnyValue =
  | { k: 'str'; v: string }
  | { k: 'bool'; v: boolean }
  | { k: 'int'; v: number | bigint }
  | { k: 'double'; v: number }
  | { k: 'bytes'; v: Uint8Array }
  | { k: 'array'; v: (AnyValue | null)[] }
  | { k: 'kvlist'; v: KeyValue[] }

export interface KeyValue {
  key: string
  value: AnyValue | null
}

export interface Scope {
  name: string
  version: string
  attributes: KeyValue[]
}

export interface SpanEvent {
  time: bigint
  name: string
  attributes: KeyValue[]
  dropped: number
}

export interface SpanLink {
  traceId: Uint8Array
  spanId: Uint8Array
  traceState: string
  attributes: KeyValue[]
  dropped: number
  flags: number
}

export interface Span {
  traceId: Uint8Array
  spanId: Uint8Array
  parentSpanId: Uint8Array
  traceState: string
  flags: number
  name: string
  kind: number
  start: bigint
  end: bigint
  attributes: KeyValue[]
  droppedAttributes: number
  events: SpanEvent[]
  droppedEvents: number
  links: SpanLink[]
  droppedLinks: number
  /** Status code 0 unset, 1 ok, 2 error; null when the span carries no status. */
  status: { code: number; message: string } | null
}

/** One resource's entries, grouped by instrumentation scope (spans, metrics or log records). */
export interface ResourceGroup<T> {
  attributes: KeyValue[]
  schemaUrl: string
  scopes: { scope: Scope | null; items: T[] }[]
}

export interface NumberPoint {
  attributes: KeyValue[]
  time: bigint
  value: number | bigint | null
  /** Sent as `as_double` (a float field even when whole) rather than `as_int`. */
  double: boolean
}

export interface HistogramPoint {
  attributes: KeyValue[]
  time: bigint
  count: number | bigint
  sum: number
  min: number
  max: number
  bucketCounts: (number | bigint)[]
  bounds: number[]
}

export interface SummaryPoint {
  attributes: KeyValue[]
  time: bigint
  count: number | bigint
  sum: number
}

export type MetricData =
  | { type: 'gauge'; points: NumberPoint[] }
  | { type: 'sum'; points: NumberPoint[]; temporality: number; monotonic: boolean }
  | { type: 'histogram'; points: HistogramPoint[]; temporality: number }
  | { type: 'exponential'; points: HistogramPoint[]; temporality: number }
  | { type: 'summary'; points: SummaryPoint[] }

export interface Metric {
  name: string
  description: string
  unit: string
  data: MetricData | null
}

export interface LogRecord {
  time: bigint
  observedTime: bigint
  severityNumber: number
  severityText: string
  body: AnyValue | null
  attributes: KeyValue[]
  traceId: Uint8Array
  spanId: Uint8Array
  flags: number
}

export type OtlpSignal = 'traces' | 'metrics' | 'logs'

export const EMPTY_ID = new Uint8Array(0)

export function emptySpan(): Span {
  return {
    traceId: EMPTY_ID,
    spanId: EMPTY_ID,
    parentSpanId: EMPTY_ID,
    traceState: '',
    flags: 0,
    name: '',
    kind: 0,
    start: 0n,
    end: 0n,
    attributes: [],
    droppedAttributes: 0,
    events: [],
    droppedEvents: 0,
    links: [],
    droppedLinks: 0,
    status: null,
  }
}

export function emptyLog(): LogRecord {
  return {
    time: 0n,
    observedTime: 0n,
    severityNumber: 0,
    severityText: '',
    body: null,
    attributes: [],
    traceId: EMPTY_ID,
    spanId: EMPTY_ID,
    flags: 0,
  }
}

export function emptyHistogramPoint(): HistogramPoint {
  return {
    attributes: [],
    time: 0n,
    count: 0,
    sum: 0,
    min: 0,
    max: 0,
    bucketCounts: [],
    bounds: [],
  }
}
