/**
 * Point times of the fast protobuf path without a BigInt per point: the int64 varint is read
 * as two 32-bit halves and written through a 32-bit view into a growable BigInt64Array.
 *
 * Invariant: the stored value is `BigInt.asIntN(64, varint)`, as the general decoder gives:
 * bits past the 64th are dropped, which 32-bit shifts do by themselves; a varint longer than
 * 10 bytes is a PbError, as there.
 */
import { PbError, type PbReader } from '../../decode/codec/pb-reader.js'

/** Where the low half of element i sits in the 32-bit view: 2i on little-endian hosts. */
const LOW = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 0 : 1

/** The halves of the last varint read by `readInt64`. */
export interface Halves {
  lo: number
  hi: number
}

function truncated(): never {
  throw new PbError('truncated varint')
}

/** Reads an int64 varint into `out` (two's complement halves, as unsigned 32-bit numbers). */
export function readInt64(r: PbReader, out: Halves): void {
  const buf = r.buf
  let pos = r.pos
  let lo = 0
  let hi = 0
  let b = 0x80
  for (let shift = 0; shift < 28 && b >= 0x80; shift += 7) {
    if (pos >= r.end) truncated()
    b = buf[pos++]
    lo |= (b & 0x7f) << shift
  }
  if (b >= 0x80) {
    if (pos >= r.end) truncated()
    b = buf[pos++]
    lo |= (b & 0x0f) << 28
    hi = (b & 0x7f) >> 4
    for (let shift = 3; shift < 38 && b >= 0x80; shift += 7) {
      if (pos >= r.end) truncated()
      b = buf[pos++]
      hi |= (b & 0x7f) << shift
    }
    if (b >= 0x80) throw new PbError('varint too long')
  }
  r.pos = pos
  out.lo = lo >>> 0
  out.hi = hi >>> 0
}

export class TimeColumn {
  length = 0
  private times = new BigInt64Array(256)
  private halves = new Uint32Array(this.times.buffer)

  private room(): void {
    if (this.length < this.times.length) return
    const times = new BigInt64Array(this.times.length * 2)
    times.set(this.times)
    this.times = times
    this.halves = new Uint32Array(times.buffer)
  }

  /** Appends a time given as halves; returns its row. */
  push(t: Halves): number {
    this.room()
    const i = this.length++
    this.halves[2 * i + LOW] = t.lo
    this.halves[2 * i + 1 - LOW] = t.hi
    return i
  }

  pushBig(t: bigint): number {
    this.room()
    this.times[this.length] = t
    return this.length++
  }

  /** The times, exactly one per row. */
  finish(): BigInt64Array {
    return this.times.length === this.length ? this.times : this.times.slice(0, this.length)
  }
}
