/**
 * Turns buffered batches into upload bodies of at most `maxRaw` bytes before compression.
 * A batch's payload is a run of PBPoints entries, so it can be cut at entry boundaries; a
 * single point larger than `maxRaw` travels alone. Batches with a different storage index
 * never share a body (the index is a request header).
 */
import type { StoredBatch } from '../../buffer/disk/types.js'

export interface UploadBody {
  category: string
  payload: Uint8Array
  points: number
  /** Deterministic from the records, so a resend after a crash carries the same id. */
  pkgId: string
  storageIndex?: string
  /** Lowest and highest buffer seq the body contains. */
  firstSeq: number
  lastSeq: number
  /** receivedAt (ms) of its oldest batch: the body expires with it. */
  receivedAt: number
}

/** Offsets of each PBPoints entry (field 1, length-delimited) in a payload. */
function entryEnds(payload: Uint8Array): number[] {
  const ends: number[] = []
  let i = 0
  while (i < payload.length) {
    i++ // tag 0x0a
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

interface Piece {
  bytes: Uint8Array
  points: number
  seq: number
  receivedAt: number
  storageIndex?: string
}

function pieces(b: StoredBatch, maxRaw: number): Piece[] {
  const piece = (bytes: Uint8Array, points: number): Piece => ({
    bytes,
    points,
    seq: b.seq,
    receivedAt: b.receivedAt,
    storageIndex: b.storageIndex,
  })
  if (b.payload.length <= maxRaw) return [piece(b.payload, b.points)]
  const out: Piece[] = []
  let start = 0
  let prev = 0
  let count = 0
  for (const end of entryEnds(b.payload)) {
    if (end - start > maxRaw && count > 0) {
      out.push(piece(b.payload.subarray(start, prev), count))
      start = prev
      count = 0
    }
    prev = end
    count++
  }
  if (count) out.push(piece(b.payload.subarray(start, prev), count))
  return out
}

export function buildBodies(
  category: string,
  batches: StoredBatch[],
  maxRaw: number,
): UploadBody[] {
  const bodies: UploadBody[] = []
  let group: Piece[] = []
  let size = 0
  const flush = () => {
    if (!group.length) return
    const payload = group.length === 1 ? group[0].bytes : Buffer.concat(group.map((p) => p.bytes))
    const first = group[0].seq
    const last = group[group.length - 1].seq
    bodies.push({
      category,
      payload,
      points: group.reduce((n, p) => n + p.points, 0),
      pkgId: `fy_${first}_${last}_${bodies.length}`,
      ...(group[0].storageIndex ? { storageIndex: group[0].storageIndex } : {}),
      firstSeq: first,
      lastSeq: last,
      receivedAt: Math.min(...group.map((p) => p.receivedAt)),
    })
    group = []
    size = 0
  }
  for (const b of batches) {
    for (const p of pieces(b, maxRaw)) {
      if (
        group.length &&
        (size + p.bytes.length > maxRaw || group[0].storageIndex !== p.storageIndex)
      )
        flush()
      group.push(p)
      size += p.bytes.length
    }
  }
  flush()
  return bodies
}
