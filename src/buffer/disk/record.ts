/**
 * The on-disk form of one batch. Every record carries a CRC32 of everything after the CRC, so
 * a damaged record is recognised and skipped instead of being uploaded or crashing a reader.
 *
 *   0  u8   version (1)
 *   1  u32  crc32 of bytes [5, end)
 *   5  u8   category index (CATEGORY_NAMES)
 *   6  u32  points
 *   10 f64  receivedAt (ms since epoch)
 *   18 u16  input length, input (UTF-8)
 *   .. u16  storage index length, storage index (UTF-8)
 *   .. payload (concatenated PBPoints entries)
 */
import zlib from 'node:zlib'
import { CATEGORY_NAMES } from '../../shared/category.js'
import type { Batch } from '../buffer.js'

const VERSION = 1

export class RecordError extends Error {}

export function encodeRecord(b: Batch): Buffer {
  const input = Buffer.from(b.input, 'utf8')
  const index = Buffer.from(b.storageIndex ?? '', 'utf8')
  const head = 18 + 2 + input.length + 2 + index.length
  const out = Buffer.allocUnsafe(head + b.payload.length)
  out[0] = VERSION
  out[5] = CATEGORY_NAMES.indexOf(b.category)
  out.writeUInt32LE(b.points, 6)
  out.writeDoubleLE(b.receivedAt, 10)
  out.writeUInt16LE(input.length, 18)
  input.copy(out, 20)
  out.writeUInt16LE(index.length, 20 + input.length)
  index.copy(out, 22 + input.length)
  out.set(b.payload, head)
  out.writeUInt32LE(zlib.crc32(out.subarray(5)), 1)
  return out
}

/** Decodes and verifies; throws RecordError for anything damaged. */
export function decodeRecord(buf: Uint8Array): Batch {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength)
  if (b.length < 22 || b[0] !== VERSION) throw new RecordError('bad record header')
  if (zlib.crc32(b.subarray(5)) !== b.readUInt32LE(1))
    throw new RecordError('record checksum mismatch')
  const category = CATEGORY_NAMES[b[5]]
  if (!category) throw new RecordError(`bad category index ${b[5]}`)
  const inputLen = b.readUInt16LE(18)
  const indexAt = 20 + inputLen
  if (indexAt + 2 > b.length) throw new RecordError('truncated record')
  const indexLen = b.readUInt16LE(indexAt)
  const payloadAt = indexAt + 2 + indexLen
  if (payloadAt > b.length) throw new RecordError('truncated record')
  const storageIndex = b.toString('utf8', indexAt + 2, payloadAt)
  return {
    category,
    points: b.readUInt32LE(6),
    receivedAt: b.readDoubleLE(10),
    input: b.toString('utf8', 20, indexAt),
    ...(storageIndex ? { storageIndex } : {}),
    payload: b.subarray(payloadAt),
  }
}
