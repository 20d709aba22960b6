/**
 * One OTLP export request body → points: the wire format by Content-Type (protobuf or JSON),
 * then the mapping of its signal. Malformed bodies raise `invalidOtlp` (400), other types
 * `unsupportedMediaType` (415), more entries than allowed `tooManyPoints` (413).
 */
import { FerryError } from '../../errors.js'
import type { Point } from '../../shared/point.js'
import { PbError } from '../codec/pb-reader.js'
import { OtlpJsonError } from './json-common.js'
import { decodeLogsJson, decodeMetricsJson, decodeTracesJson } from './json-signals.js'
import { mapLogs } from './map-logs.js'
import { mapMetrics } from './map-metrics.js'
import { mapTraces } from './map-traces.js'
import type { OtlpSignal, ResourceGroup } from './model.js'
import type { OtlpOptions } from './options.js'
import { decodeLogsPb } from './pb-logs.js'
import { decodeMetricsPb } from './pb-metrics.js'
import { decodeTracesPb } from './pb-traces.js'
import { sampleTraces } from './sample.js'
import { newStats, type MapStats } from './stats.js'

export type OtlpEncoding = 'protobuf' | 'json'

/** Which wire format a Content-Type names; null for any other. */
export function otlpEncoding(contentType: string): OtlpEncoding | null {
  const ct = contentType.split(';')[0].trim().toLowerCase()
  if (ct === 'application/x-protobuf' || ct === 'application/protobuf') return 'protobuf'
  if (ct === 'application/json') return 'json'
  return null
}

function groups(signal: OtlpSignal, enc: OtlpEncoding, body: Uint8Array): ResourceGroup<unknown>[] {
  if (enc === 'protobuf') {
    if (signal === 'traces') return decodeTracesPb(body)
    return signal === 'metrics' ? decodeMetricsPb(body) : decodeLogsPb(body)
  }
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')
  if (signal === 'traces') return decodeTracesJson(text)
  return signal === 'metrics' ? decodeMetricsJson(text) : decodeLogsJson(text)
}

function parse(signal: OtlpSignal, enc: OtlpEncoding, body: Uint8Array): ResourceGroup<unknown>[] {
  try {
    return groups(signal, enc, body)
  } catch (e) {
    if (e instanceof PbError || e instanceof OtlpJsonError)
      throw new FerryError('invalidOtlp', `invalid OTLP ${enc} ${signal} request: ${e.message}`)
    throw e
  }
}

/** Spans, data points or log records in the request. */
function entries(gs: ResourceGroup<unknown>[], signal: OtlpSignal): number {
  let n = 0
  for (const g of gs)
    for (const s of g.scopes)
      if (signal !== 'metrics') n += s.items.length
      else
        for (const m of s.items as { data: { points: unknown[] } | null }[])
          n += m.data?.points.length ?? 0
  return n
}

export interface OtlpDecoded {
  points: Point[]
  stats: MapStats
}

export function decodeOtlp(
  signal: OtlpSignal,
  contentType: string,
  body: Uint8Array,
  o: OtlpOptions,
): OtlpDecoded {
  const enc = otlpEncoding(contentType)
  if (enc === null)
    throw new FerryError(
      'unsupportedMediaType',
      `OTLP bodies are application/x-protobuf or application/json, not ${JSON.stringify(contentType)}`,
    )
  const gs = parse(signal, enc, body)
  const n = entries(gs, signal)
  if (n > o.maxEntries)
    throw new FerryError(
      'tooManyPoints',
      `the request holds ${n} ${signal} entries, more than ${o.maxEntries} ([http_api] max_points_per_request)`,
    )
  const stats = newStats()
  if (signal === 'metrics') return { points: mapMetrics(gs as never, o, stats), stats }
  if (signal === 'logs') return { points: mapLogs(gs as never, o, stats), stats }
  stats.generalSpans = n
  const sampled = sampleTraces(mapTraces(gs as never, o, stats), o.samplingRate)
  stats.sampled = sampled.dropped
  return { points: sampled.kept, stats }
}
