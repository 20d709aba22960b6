/**
 * What one request's mapping counted: entries rejected (OTLP's partial success), spans left
 * out by sampling or by `close_resource`, and attributes dropped past `max_attributes`.
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
}

export function newStats(): MapStats {
  return { rejected: 0, reason: '', sampled: 0, closed: 0, attributesDropped: 0 }
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
