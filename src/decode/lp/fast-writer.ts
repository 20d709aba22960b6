/**
 * The transcoders' output buffer: the shared PBPoints writer with writes that skip the per-call
 * room check, for the hot path.
 *
 * Invariant: a caller has reserved room with `ensure` for everything it writes through these
 * methods (`bound` in fast-out.ts for a whole point).
 */
import { PbWriter } from '../codec/pb-writer.js'

const TWO32 = 4294967296
/** The plain typed array method: a Buffer's own `subarray` builds a Buffer, slower. */
const subarray = Uint8Array.prototype.subarray

/**
 * The shared PBPoints writer (buffer, growth) with writes that skip the per-call room check:
 * `ensure` has reserved room for a whole point first (`bound`).
 */
export class Out extends PbWriter {
  /** `uvarint` without its room check. */
  putUvarint(v: number): void {
    const b = this.buf
    while (v > 0x7f) {
      b[this.pos++] = (v & 0x7f) | 0x80
      v = Math.floor(v / 128)
    }
    b[this.pos++] = v
  }

  /** The 64-bit value hi * 2^32 + lo (both unsigned 32-bit) as a varint. */
  varint64(hi: number, lo: number): void {
    const b = this.buf
    while (hi > 0 || lo > 0x7f) {
      b[this.pos++] = (lo & 0x7f) | 0x80
      lo = ((lo >>> 7) | ((hi & 0x7f) << 25)) >>> 0
      hi = hi >>> 7
    }
    b[this.pos++] = lo
  }

  /** A safe integer as int64 (negatives in ten bytes of two's complement). */
  putInt64(v: number): void {
    if (v >= 0) return this.putUvarint(v)
    const hi = Math.floor(v / TWO32)
    this.varint64(hi >>> 0, v - hi * TWO32)
  }

  /** Length-prefixed bytes src[a, e) holding `esc` escape pairs, written without their backslashes. */
  copyEsc(src: Uint8Array, a: number, e: number, esc: number): void {
    if (esc === 0) return this.copy(src, a, e)
    this.putUvarint(e - a - esc)
    const b = this.buf
    let p = this.pos
    while (a < e) {
      if (src[a] === 92) a++ // every backslash of an accepted range opens a pair
      b[p++] = src[a++]
    }
    this.pos = p
  }

  /** Length-prefixed bytes src[a, e). Short ranges by a loop: a view per key costs more. */
  copy(src: Uint8Array, a: number, e: number): void {
    this.putUvarint(e - a)
    const b = this.buf
    let p = this.pos
    if (e - a > 64) {
      b.set(subarray.call(src, a, e) as Uint8Array, p)
      p += e - a
    } else while (a < e) b[p++] = src[a++]
    this.pos = p
  }
}
