/**
 * Turns buffered batches into upload bodies of at most `maxRaw` bytes before compression.
 *
 * Invariants (exactly once relies on them; see pkg-id.ts for the id format):
 * - Cuts are a pure function of the records and `maxRaw`: records are grouped greedily in
 *   sequence order, a record larger than `maxRaw` is cut at PBPoints entry boundaries into
 *   pieces that each travel alone, and a change of storage index closes a body. So the same
 *   records always give the same bodies, before and after a restart.
 * - Expiry never moves a cut: bodies are cut over every record, then expired records are left
 *   out of a body's payload while the body keeps its id. A body sent again under the same id
 *   therefore carries a subset of what the first attempt carried.
 */
import type { StoredBatch } from '../../buffer/buffer.js'
import { packageId } from './pkg-id.js'

export interface UploadBody {
  category: string
  payload: Uint8Array
  points: number
  /** `X-Pkg-Id`: the buffer's identity plus the exact record range (pkg-id.ts). */
  pkgId: string
  storageIndex?: string
  /** `X-Global-Tags`: the sinker group of every point in the body (sinker.ts). */
  globalTags?: string
  /** Lowest and highest buffer seq the body covers. */
  firstSeq: number
  lastSeq: number
  /** receivedAt (ms) of its newest kept batch: once that expires, all of the body has. */
  receivedAt: number
  /** Points of the covered records left out because they expired. */
  expiredPoints: number
}

/** Offsets of each PBPoints entry (field 1, length-delimited) in a payload. */
export function entryEnds(payload: Uint8Array): number[] {
  const ends: number[] = []
  let i = 0
  while (i < payload.length) {
    i++ // the entry's one-byte tag, T_POINTS_ARR of pbpoint-wire.ts (records hold only entries)
    let len = 0
    let shift = 1
    let b: number
    do {
      b = payload[i++]
      len += (b & 0x7f) * shift
      shift *= 128
    } while (b & 0x80)
    i += len
    ends.push(i)
  }
  return ends
}

/**
 * The pieces as one payload: a view when each piece follows the one before it in the same
 * memory (the disk buffer reads a window's payloads into one buffer, in order), otherwise a
 * copy. The bytes are the same either way.
 */
export function joined(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]
  const first = parts[0]
  let end = first.byteOffset + first.byteLength
  for (let i = 1; i < parts.length; i++) {
    const p = parts[i]
    if (p.buffer !== first.buffer || p.byteOffset !== end) return Buffer.concat(parts)
    end += p.byteLength
  }
  return Buffer.from(first.buffer, first.byteOffset, end - first.byteOffset)
}

interface Piece {
  bytes: Uint8Array
  points: number
  batch: StoredBatch
  /** First and last entry index, for a piece of a record larger than maxRaw. */
  entries?: [number, number]
}

/** A record as one piece, or cut at entry boundaries when it is larger than `maxRaw`. */
function pieces(b: StoredBatch, maxRaw: number): Piece[] {
  if (b.payload.length <= maxRaw) return [{ bytes: b.payload, points: b.points, batch: b }]
  const out: Piece[] = []
  let start = 0
  let prev = 0
  let first = 0
  let index = 0
  const cut = () => {
    out.push({
      bytes: b.payload.subarray(start, prev),
      points: index - first,
      batch: b,
      entries: [first, index - 1],
    })
    start = prev
    first = index
  }
  for (const end of entryEnds(b.payload)) {
    if (end - start > maxRaw && index > first) cut()
    prev = end
    index++
  }
  if (index > first) cut()
  return out
}

/** A sinker group: its header value and the id part derived from it (pkg-id.ts). */
export interface SinkGroup {
  header: string
  id: string
}

function toBody(
  category: string,
  bufferId: string,
  group: Piece[],
  keep: Keep,
  sink?: SinkGroup,
): UploadBody {
  const first = group[0]
  const last = group[group.length - 1]
  const kept = group.filter((p) => keep(p.batch.receivedAt))
  const payload = kept.length ? joined(kept.map((p) => p.bytes)) : Buffer.alloc(0)
  const points = kept.reduce((n, p) => n + p.points, 0)
  return {
    category,
    payload,
    points,
    pkgId: packageId(bufferId, first.batch.seq, last.batch.seq, first.entries, sink?.id),
    ...(first.batch.storageIndex ? { storageIndex: first.batch.storageIndex } : {}),
    ...(sink ? { globalTags: sink.header } : {}),
    firstSeq: first.batch.seq,
    lastSeq: last.batch.seq,
    receivedAt: Math.max(0, ...kept.map((p) => p.batch.receivedAt)),
    expiredPoints: group.reduce((n, p) => n + p.points, 0) - points,
  }
}

/** Whether a batch received at this time is still to be sent. */
export type Keep = (receivedAt: number) => boolean

export function buildBodies(
  category: string,
  bufferId: string,
  batches: StoredBatch[],
  maxRaw: number,
  keep: Keep = () => true,
  sink?: SinkGroup,
): UploadBody[] {
  const bodies: UploadBody[] = []
  let group: Piece[] = []
  let size = 0
  const flush = () => {
    if (group.length) bodies.push(toBody(category, bufferId, group, keep, sink))
    group = []
    size = 0
  }
  for (const b of batches) {
    for (const p of pieces(b, maxRaw)) {
      const alone = p.entries !== undefined
      if (
        group.length &&
        (alone || size + p.bytes.length > maxRaw || group[0].batch.storageIndex !== b.storageIndex)
      )
        flush()
      group.push(p)
      size += p.bytes.length
      if (alone) flush()
    }
  }
  flush()
  return bodies
}
