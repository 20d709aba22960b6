/**
 * The on-disk form of one batch. Every record carries a CRC32 of everything after it, so a
 * damaged record is recognised and skipped instead of being uploaded or crashing a reader; and
 * a magic, its length and its seq, so that a salvage can find every intact record in the raw
 * bytes of a file LMDB itself can no longer read (scan.ts).
 *
 *   0  4B   magic "FYB2"
 *   4  u32  crc32 of bytes [8, end)
 *   8  u32  length of the whole record
 *   12 f64  seq
 *   20 u8   category index (CATEGORY_NAMES)
 *   21 u32  points
 *   25 f64  receivedAt (ms since epoch)
 *   33 u16  input length, input (UTF-8)
 *   .. u16  storage index length, storage index (UTF-8)
 *   .. payload (concatenated PBPoints entries)
 *
 * Version 1 records (no magic, length or seq) written by earlier releases are still read.
 */
import zlib from 'node:zlib'
import { CATEGORY_NAMES } from '../../shared/category.js'
import { crc32Combine } from '../../shared/crc32-combine.js'
import type { Batch } from '../buffer.js'

export const MAGIC = Buffer.from('FYB2', 'latin1')
const HEAD = 33
const V1 = 1

export class RecordError extends Error {}

/** The encoded size of a batch, before it has a seq. */
export function recordSize(b: Batch): number {
  return (
    HEAD +
    4 +
    Buffer.byteLength(b.input) +
    Buffer.byteLength(b.storageIndex ?? '') +
    b.payload.length
  )
}

/**
 * The record's memory: the payload's own buffer, the header written into the room before it,
 * when the batch has room enough (shared/payload-room.ts); else a new buffer, the payload
 * copied in.
 */
function recordMemory(b: Batch, head: number): Buffer {
  const p = b.payload
  if ((b.payloadRoom ?? 0) >= head && p.byteOffset >= head)
    return Buffer.from(p.buffer, p.byteOffset - head, head + p.length)
  const out = Buffer.allocUnsafe(head + p.length)
  out.set(p, head)
  return out
}

export function encodeRecord(b: Batch, seq: number): Buffer {
  const input = Buffer.from(b.input, 'utf8')
  const index = Buffer.from(b.storageIndex ?? '', 'utf8')
  const head = HEAD + 2 + input.length + 2 + index.length
  const out = recordMemory(b, head)
  MAGIC.copy(out, 0)
  out.writeUInt32LE(out.length, 8)
  out.writeDoubleLE(seq, 12)
  out[20] = CATEGORY_NAMES.indexOf(b.category)
  out.writeUInt32LE(b.points, 21)
  out.writeDoubleLE(b.receivedAt, 25)
  out.writeUInt16LE(input.length, HEAD)
  input.copy(out, HEAD + 2)
  out.writeUInt16LE(index.length, HEAD + 2 + input.length)
  index.copy(out, HEAD + 4 + input.length)
  // The payload's CRC from the worker, when given, spares the HTTP thread a pass over it.
  const crc =
    b.payloadCrc === undefined
      ? zlib.crc32(out.subarray(8))
      : crc32Combine(zlib.crc32(out.subarray(8, head)), b.payloadCrc, b.payload.length)
  out.writeUInt32LE(crc, 4)
  return out
}

/** A decoded record; `seq` is absent for version 1 records. */
export interface DecodedRecord extends Batch {
  seq?: number
}

function strings(b: Buffer, at: number): { input: string; index: string; payloadAt: number } {
  const inputLen = b.readUInt16LE(at)
  const indexAt = at + 2 + inputLen
  if (indexAt + 2 > b.length) throw new RecordError('truncated record')
  const indexLen = b.readUInt16LE(indexAt)
  const payloadAt = indexAt + 2 + indexLen
  if (payloadAt > b.length) throw new RecordError('truncated record')
  return {
    input: b.toString('utf8', at + 2, indexAt),
    index: b.toString('utf8', indexAt + 2, payloadAt),
    payloadAt,
  }
}

function batchOf(b: Buffer, category: number, points: number, receivedAt: number, at: number) {
  const name = CATEGORY_NAMES[category]
  if (!name) throw new RecordError(`bad category index ${category}`)
  const s = strings(b, at)
  return {
    category: name,
    points,
    receivedAt,
    input: s.input,
    ...(s.index ? { storageIndex: s.index } : {}),
    payload: b.subarray(s.payloadAt),
  }
}

/** Decodes and verifies; throws RecordError for anything damaged. */
export function decodeRecord(buf: Uint8Array): DecodedRecord {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength)
  if (b.length >= 22 && b[0] === V1) {
    if (zlib.crc32(b.subarray(5)) !== b.readUInt32LE(1))
      throw new RecordError('record checksum mismatch')
    return batchOf(b, b[5], b.readUInt32LE(6), b.readDoubleLE(10), 18)
  }
  if (b.length < HEAD + 4 || !b.subarray(0, 4).equals(MAGIC))
    throw new RecordError('bad record header')
  if (b.readUInt32LE(8) !== b.length) throw new RecordError('record length mismatch')
  if (zlib.crc32(b.subarray(8)) !== b.readUInt32LE(4))
    throw new RecordError('record checksum mismatch')
  const batch = batchOf(b, b[20], b.readUInt32LE(21), b.readDoubleLE(25), HEAD)
  return { ...batch, seq: b.readDoubleLE(12) }
}
