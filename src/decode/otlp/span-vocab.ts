/**
 * The words a tracing point uses for a span, shared by both paths (map-traces.ts and the
 * byte-level span-map.ts): its kind by OTLP's number, and its `source_type` from the keys it
 * carries (web before db before message_queue, whichever comes first).
 */
import type { Point } from '../../shared/point.js'

export const SPAN_KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer']

export const SOURCE_TYPES: Record<string, number> = {
  http_scheme: 3,
  http_method: 3,
  rpc_system: 3,
  db_system: 2,
  messaging_system: 1,
}
export const SOURCE_TYPE_NAMES = ['custom', 'message_queue', 'db', 'web']

/** web before db before message_queue, whichever key comes first; one pass over the keys. */
export function sourceType(p: Point): string {
  let best = 0
  for (const t of p.tags) best = Math.max(best, SOURCE_TYPES[t.key] ?? 0)
  for (const f of p.fields) best = Math.max(best, SOURCE_TYPES[f.key] ?? 0)
  return SOURCE_TYPE_NAMES[best]
}
