/**
 * Reading a window of records: one allocation for the whole window, one copy of each payload.
 *
 * Invariants:
 * - Every record is verified (magic, length, CRC) before it is used; a damaged one is reported
 *   through `damaged`, skipped, and does not count toward `maxBytes`, exactly as before.
 * - LMDB's own bytes are read in place (`getBinaryFast`: a view valid only until the next read),
 *   so nothing of a record is kept from the first pass; the second pass, in the same event turn
 *   and so the same read snapshot, copies each kept payload into one buffer, in seq order.
 * - The payloads of consecutive records are therefore adjacent in that buffer, and a body made
 *   of consecutive records is a view of it (bodies.ts joins adjacent views without a copy).
 * - That buffer comes from `take` (the buffer pool, when there is one), so a reader done with a
 *   window can hand it back (DiskBuffer.release) for the next window.
 */
import type { Database } from 'lmdb'
import type { StoredBatch } from '../buffer.js'
import type { Key } from './keys.js'
import { decodeRecord, RecordError } from './record.js'

type Damaged = (seq: number, why: string) => void

/**
 * A record's bytes in LMDB's own memory, valid until the next read. lmdb-js may hand back its
 * reused read buffer with only its `length` property set to the record's size (`byteLength`
 * is the whole buffer's), so the view is cut to that length before anything reads it.
 */
function inPlace(db: Database<Buffer, Key>, key: Key): Buffer | undefined {
  const bytes = db.getBinaryFast(key)
  return bytes && bytes.subarray(0, bytes.length)
}

/** First pass: the records to read, verified, their payloads still to be copied. */
function verified(
  db: Database<Buffer, Key>,
  start: number,
  maxBytes: number,
  throughSeq: number | undefined,
  damaged: Damaged,
): { keys: Key[]; batches: StoredBatch[]; size: number } {
  const keys: Key[] = []
  const batches: StoredBatch[] = []
  let bytes = 0
  let size = 0
  const end = throughSeq === undefined ? undefined : [throughSeq + 1]
  for (const key of db.getKeys({ start: [start], end })) {
    if (throughSeq === undefined && keys.length && bytes + key[3] > maxBytes) break
    const view = inPlace(db, key)
    if (!view) continue
    try {
      const record = decodeRecord(view)
      batches.push({ ...record, seq: key[0] })
      keys.push(key)
      bytes += key[3]
      size += record.payload.length
    } catch (e) {
      if (!(e instanceof RecordError)) throw e
      damaged(key[0], e.message)
    }
  }
  return { keys, batches, size }
}

/**
 * Records after `afterSeq`, damaged ones skipped: up to `maxBytes` (at least one record), or,
 * with `throughSeq`, exactly those up to that seq whatever their size.
 */
export function readRecords(
  db: Database<Buffer, Key>,
  afterSeq: number,
  maxBytes: number,
  throughSeq: number | undefined,
  damaged: Damaged,
  take: (n: number) => Uint8Array = (n) => Buffer.allocUnsafe(n),
): StoredBatch[] {
  const { keys, batches, size } = verified(db, afterSeq + 1, maxBytes, throughSeq, damaged)
  if (!keys.length) return batches
  const taken = take(size)
  const arena = Buffer.from(taken.buffer, taken.byteOffset, size)
  let at = 0
  for (let i = 0; i < keys.length; i++) {
    const view = inPlace(db, keys[i])!
    const len = batches[i].payload.length
    arena.set(view.subarray(view.length - len), at)
    batches[i].payload = arena.subarray(at, at + len)
    at += len
  }
  return batches
}
