/**
 * A Datadog tracer's span as every wire version decodes to it (v0.3 JSON, v0.4 and v0.5
 * msgpack), and what one request's mapping left out.
 *
 * Invariants: ids are unsigned 64-bit bigints (0 when absent); start and duration are
 * nanoseconds as bigints; meta and metrics hold what the span carried, in wire order.
 */
export interface DdSpan {
  service: string
  name: string
  resource: string
  traceId: bigint
  spanId: bigint
  parentId: bigint
  start: bigint
  duration: bigint
  error: number
  meta: Map<string, string>
  metrics: Map<string, number>
  type: string
}

/** A trace as the tracer sent it: the spans of one trace id (a chunk of it, possibly). */
export type DdTrace = DdSpan[]

/** The routes: v0.3 is JSON or msgpack, v0.4 msgpack, v0.5 msgpack with a string table. */
export type DdtraceVersion = 'v0.3' | 'v0.4' | 'v0.5'

export const DDTRACE_VERSIONS: readonly DdtraceVersion[] = ['v0.3', 'v0.4', 'v0.5']

/** Spans a request's mapping left out, by reason (every one is counted and logged). */
export interface DdtraceStats {
  /** Traces the tracer marked as rejected (`_sampling_priority_v1` of 0, -1 or -3). */
  priority: number
  /** Traces with a web span whose HTTP status is listed in `omit_err_status`. */
  omitted: number
  /** Traces left out by `sampling_rate`. */
  sampled: number
  /** Spans cut from traces longer than `trace_max_spans`. */
  truncated: number
}

export function newDdtraceStats(): DdtraceStats {
  return { priority: 0, omitted: 0, sampled: 0, truncated: 0 }
}

export function emptyDdSpan(): DdSpan {
  return {
    service: '',
    name: '',
    resource: '',
    traceId: 0n,
    spanId: 0n,
    parentId: 0n,
    start: 0n,
    duration: 0n,
    error: 0,
    meta: new Map(),
    metrics: new Map(),
    type: '',
  }
}
