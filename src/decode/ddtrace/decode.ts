/**
 * One tracer request → tracing points: decode by route and type (wire.ts), refuse more spans
 * than `maxEntries` (413 `tooManyPoints`), then per trace the keep-or-leave-out verdict
 * (sample.ts) and the mapping (map.ts). What is left out is counted in the stats, by reason.
 */
import { FerryError } from '../../errors.js'
import { Kind, type Point } from '../../shared/point.js'
import { mapTrace } from './map.js'
import { newDdtraceStats, type DdtraceStats, type DdtraceVersion } from './model.js'
import type { DdtraceOptions } from './options.js'
import { judge } from './sample.js'
import { metaSelector } from './tags.js'
import { decodeTraces } from './wire.js'

/** A span's wire form needs a map, its meta and metrics, and a few more at most. */
const CONTAINERS_PER_SPAN = 8

export interface DdtraceDecoded {
  points: Point[]
  stats: DdtraceStats
}

export function decodeDdtrace(
  version: DdtraceVersion,
  contentType: string,
  body: Uint8Array,
  o: DdtraceOptions,
): DdtraceDecoded {
  const traces = decodeTraces(version, contentType, body, {
    maxContainers: o.maxEntries * CONTAINERS_PER_SPAN + 1024,
    maxStringBytes: o.maxStringBytes,
  })
  const spans = traces.reduce((n, t) => n + t.length, 0)
  if (spans > o.maxEntries)
    throw new FerryError(
      'tooManyPoints',
      `the request holds ${spans} spans, more than ${o.maxEntries} ([http_api] max_points_per_request)`,
    )
  const stats = newDdtraceStats()
  const sel = metaSelector(o.customerTags)
  const points: Point[] = []
  for (const t of traces) {
    if (t.length === 0) continue
    const verdict = judge(t, o)
    if (verdict !== 'keep' && verdict !== 'rate') {
      stats[verdict] += t.length
      continue
    }
    const m = mapTrace(t, o, sel)
    stats.truncated += m.truncated
    if (verdict === 'rate')
      m.points[0].fields.push({ key: 'dk_sampling_rate', kind: Kind.FLOAT, value: o.samplingRate })
    points.push(...m.points)
  }
  return { points, stats }
}
