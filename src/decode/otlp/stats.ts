/**
 * What one request's mapping counted: entries rejected (OTLP's partial success), spans left
 * out by sampling or by `close_resource`, attributes dropped past `max_attributes`, and which
 * path mapped the spans.
 */
import type { KeyValue } from './model.js'
import type { OtlpOptions } from './options.js'

export interface MapStats {
  rejected: number
  /** Why the first rejected entry was rejected (OTLP's `error_message`). */
  reason: string
  sampled: number
  /** Spans of resource groups left out by `close_resource`. */
  closed: number
  attributesDropped: number
  /**
   * Spans of the request mapped by the trace transcoder (transcode.ts) or by the general path;
   * both 0 for metrics and logs.
   */
  transcodedSpans: number
  generalSpans: number
}

export function newStats(): MapStats {
  return {
    rejected: 0,
    reason: '',
    sampled: 0,
    closed: 0,
    attributesDropped: 0,
    transcodedSpans: 0,
    generalSpans: 0,
  }
}

export function reject(stats: MapStats, n: number, reason: string): void {
  stats.rejected += n
  if (!stats.reason) stats.reason = reason
}

/** The first `maxAttributes` attributes; the rest are counted as dropped. */
export function limitAttrs(
  kvs: KeyValue[],
  c: { o: Pick<OtlpOptions, 'maxAttributes'>; stats: MapStats },
): KeyValue[] {
  if (kvs.length <= c.o.maxAttributes) return kvs
  c.stats.attributesDropped += kvs.length - c.o.maxAttributes
  return kvs.slice(0, c.o.maxAttributes)
}
