/**
 * Finds every intact record in the raw bytes of a buffer file, without LMDB. LMDB keeps a value
 * contiguous (inside a leaf page, or across a run of overflow pages whose header sits only on
 * the first), so a record's bytes can be found by its magic and accepted by its length and
 * CRC, whatever happened to the tree around it: flipped bytes, torn or zeroed pages, a lost
 * meta page, a truncated file. Old copies of pages (LMDB is copy-on-write) yield records again;
 * the caller keeps one per seq and drops what was already delivered.
 *
 * Bounded: the file is read in windows of WINDOW bytes; a record reaching past a window is read
 * on its own, and a claimed length beyond the file is refused before anything is allocated.
 */
import fs from 'node:fs'
import { decodeRecord, MAGIC, RecordError, type DecodedRecord } from './record.js'

const WINDOW = 16 << 20
const MIN_RECORD = 37

export interface Found {
  record: DecodedRecord
  /** The record's bytes, as stored. */
  bytes: Buffer
}

function readAt(fd: number, offset: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length)
  let done = 0
  while (done < length) {
    const n = fs.readSync(fd, buf, done, length - done, offset + done)
    if (n === 0) return buf.subarray(0, done)
    done += n
  }
  return buf
}

/** The record starting at `at` of the file, or null when it is not an intact one. */
function recordAt(fd: number, win: Buffer, winStart: number, at: number, size: number) {
  const local = at - winStart
  if (local + 12 > win.length) return null
  const length = win.readUInt32LE(local + 8)
  if (length < MIN_RECORD || at + length > size) return null
  const bytes =
    local + length <= win.length
      ? Buffer.from(win.subarray(local, local + length))
      : readAt(fd, at, length)
  try {
    return { record: decodeRecord(bytes), bytes }
  } catch (e) {
    if (e instanceof RecordError) return null
    throw e
  }
}

export function* scanFile(file: string): Generator<Found> {
  const fd = fs.openSync(file, 'r')
  try {
    const size = fs.fstatSync(fd).size
    let pos = 0
    while (pos < size) {
      // Windows overlap by the 12 header bytes a record needs to be judged.
      const win = readAt(fd, pos, Math.min(WINDOW + 12, size - pos))
      let next = pos + WINDOW
      for (let i = win.indexOf(MAGIC); i !== -1 && i < WINDOW;) {
        const found = recordAt(fd, win, pos, pos + i, size)
        if (!found) {
          i = win.indexOf(MAGIC, i + 1)
          continue
        }
        yield found
        const end = i + found.bytes.length
        if (end >= WINDOW) {
          next = pos + end // the record ran past this window: go on after it
          break
        }
        i = win.indexOf(MAGIC, end)
      }
      pos = next
    }
  } finally {
    fs.closeSync(fd)
  }
}
