/**
 * The sinker (`enable_sinker`): each point's `X-Global-Tags` value is made of `k=v` pairs of
 * its string tags and string fields whose key is a sink key (a global host tag key or one of
 * `global_customer_keys`), plus the virtual keys when they are sink keys: `category`, and
 * `source`, `measurement` or `class` by category (shared/category.ts); the upstream routes each
 * body by it. Points are grouped into separate bodies per value.
 *
 * Invariants (exactly once, with bodies.ts and pkg-id.ts):
 * - Grouping is a pure function of the window's records and the sink keys, which the window's
 *   plan keeps; so a window read again after a restart gives the same bodies and ids.
 * - Pairs are sorted by key (the reference keeps the point's order), so one set of tags is
 *   one group whatever order a client wrote them in.
 * - Groups come in the order of their first point in the window; within a group, records keep
 *   their order and each record's points keep theirs, and are cut exactly as without the
 *   sinker. A group with an empty value travels without the header and with a plain id.
 */
import crypto from 'node:crypto'
import type { StoredBatch } from '../../buffer/buffer.js'
import { decodePoints } from '../../decode/codec/protobuf-decode.js'
import { nameKey, type Category } from '../../shared/category.js'
import { Kind, type Point } from '../../shared/point.js'
import {
  buildBodies,
  entryEnds,
  joined,
  type Keep,
  type SinkGroup,
  type UploadBody,
} from './bodies.js'

/** The sink keys: global host tag keys and customer keys, sorted, without repeats. */
export function sinkKeys(globalTagKeys: string[], customerKeys: readonly string[]): string[] {
  return [...new Set([...globalTagKeys, ...customerKeys])].sort()
}

export function headerValue(p: Point, category: Category, keys: ReadonlySet<string>): string {
  const pairs: [string, string][] = []
  for (const t of p.tags) if (keys.has(t.key)) pairs.push([t.key, t.value])
  for (const f of p.fields)
    if (f.kind === Kind.STRING && keys.has(f.key)) pairs.push([f.key, f.value as string])
  if (keys.has('category')) pairs.push(['category', category])
  const named = nameKey(category)
  if (named && keys.has(named)) pairs.push([named, p.name])
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return pairs.map(([k, v]) => `${k}=${v}`).join(',')
}

function groupOf(header: string): SinkGroup | undefined {
  if (!header) return undefined
  return { header, id: crypto.createHash('sha256').update(header).digest('hex').slice(0, 16) }
}

/** One record split by group: a record-like part per header value, in the record's order. */
function split(b: StoredBatch, category: Category, keys: ReadonlySet<string>) {
  const points = decodePoints(b.payload)
  const ends = entryEnds(b.payload)
  const parts = new Map<string, { chunks: Uint8Array[]; points: number }>()
  let start = 0
  for (let i = 0; i < ends.length; i++) {
    const h = headerValue(points[i], category, keys)
    let part = parts.get(h)
    if (!part) parts.set(h, (part = { chunks: [], points: 0 }))
    part.chunks.push(b.payload.subarray(start, ends[i]))
    part.points++
    start = ends[i]
  }
  return parts
}

/** Bodies of a window grouped by the sinker, then cut as `buildBodies` cuts them. */
export function groupedBodies(
  category: Category,
  bufferId: string,
  batches: StoredBatch[],
  maxRaw: number,
  keys: readonly string[],
  keep: Keep = () => true,
): UploadBody[] {
  const set = new Set(keys)
  const groups = new Map<string, StoredBatch[]>()
  for (const b of batches) {
    for (const [h, part] of split(b, category, set)) {
      let list = groups.get(h)
      if (!list) groups.set(h, (list = []))
      const payload = joined(part.chunks)
      list.push({ ...b, payload, points: part.points })
    }
  }
  const out: UploadBody[] = []
  for (const [h, records] of groups)
    out.push(...buildBodies(category, bufferId, records, maxRaw, keep, groupOf(h)))
  return out
}
