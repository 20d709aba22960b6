/**
 * Strings of a protobuf body decoded once per distinct byte sequence: points of one body
 * mostly repeat their keys at the same position and draw their tag values from a few, so
 * each position (a small integer chosen by the caller) remembers the last string read there,
 * and short strings are also found by their bytes in a hash table of the body. A string found
 * either way is the same string object, without decoding UTF-8 again.
 *
 * Invariants: `read` returns exactly what a UTF-8 decode of the bytes gives; `lastId` is the
 * id of the bytes just read (equal ids mean equal bytes), or -1 for a long string that is not
 * kept (equal strings may still have different ids or none).
 */
import { PbError, type PbReader } from '../../decode/codec/pb-reader.js'

/** Longer strings (messages) rarely repeat: hashing them would cost more than it saves. */
const MAX_KEPT = 64
const FIRST_SLOTS = 1024

function doubled(a: Int32Array): Int32Array<ArrayBuffer> {
  const out = new Int32Array(a.length * 2)
  out.set(a)
  return out
}

export class Interner {
  /** The id of the bytes just read, or -1. */
  lastId = -1
  /** Per distinct kept byte sequence (by id): where it is in the body and its string. */
  private starts = new Int32Array(256)
  private lens = new Int32Array(256)
  private hashes = new Int32Array(256)
  private readonly texts: string[] = []
  /** Open addressing: id + 1 per slot, 0 for empty. */
  private table = new Int32Array(FIRST_SLOTS)
  /** The last id read at each caller position, or -1 (or undefined) for none. */
  private readonly lastAt: number[] = []

  /** The same bytes as a Buffer, for its native UTF-8 slice without a view per string. */
  private readonly text: Buffer

  constructor(private readonly buf: Uint8Array) {
    this.text = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength)
  }

  private same(id: number, start: number, len: number): boolean {
    if (this.lens[id] !== len) return false
    const buf = this.buf
    const other = this.starts[id]
    for (let i = 0; i < len; i++) if (buf[start + i] !== buf[other + i]) return false
    return true
  }

  /** The id of the bytes, found or added. */
  private find(start: number, len: number): number {
    const buf = this.buf
    let h = 0x811c9dc5
    for (let i = start; i < start + len; i++) h = Math.imul(h ^ buf[i], 0x01000193)
    const mask = this.table.length - 1
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const e = this.table[s]
      if (e === 0) return this.add(s, h, start, len)
      if (this.hashes[e - 1] === h && this.same(e - 1, start, len)) return e - 1
    }
  }

  private add(slot: number, h: number, start: number, len: number): number {
    const id = this.texts.length
    this.texts.push(this.text.toString('utf8', start, start + len))
    if (id === this.starts.length) {
      this.starts = doubled(this.starts)
      this.lens = doubled(this.lens)
      this.hashes = doubled(this.hashes)
    }
    this.starts[id] = start
    this.lens[id] = len
    this.hashes[id] = h
    this.table[slot] = id + 1
    if (2 * this.texts.length > this.table.length) this.rehash()
    return id
  }

  /** Doubles the table, kept at most half full, and places every id again. */
  private rehash(): void {
    const table = new Int32Array(this.table.length * 2)
    const mask = table.length - 1
    for (let id = 0; id < this.texts.length; id++) {
      let s = this.hashes[id] & mask
      while (table[s] !== 0) s = (s + 1) & mask
      table[s] = id + 1
    }
    this.table = table
  }

  /** The length-delimited string at the reader's position, remembered under `position`. */
  read(r: PbReader, position: number): string {
    const len = r.uvarint()
    const start = r.pos
    if (start + len > r.end) throw new PbError('truncated length-delimited field')
    r.pos += len
    const last = this.lastAt[position] ?? -1
    if (last >= 0 && this.same(last, start, len)) return this.texts[(this.lastId = last)]
    if (len > MAX_KEPT) {
      this.lastId = this.lastAt[position] = -1
      return this.text.toString('utf8', start, start + len)
    }
    const id = (this.lastId = this.lastAt[position] = this.find(start, len))
    return this.texts[id]
  }
}
