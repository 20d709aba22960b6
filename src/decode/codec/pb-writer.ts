/**
 * A minimal protobuf wire writer tuned for PBPoint encoding: one growable buffer, ASCII fast
 * path for strings, and length prefixes patched in place after a nested message is written.
 */
const textEncoder = new TextEncoder()
const f64 = new Float64Array(1)
const f64bytes = new Uint8Array(f64.buffer)

export class PbWriter {
  buf: Uint8Array
  pos = 0

  constructor(initial = 64 * 1024) {
    this.buf = new Uint8Array(initial)
  }

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return
    let size = this.buf.length * 2
    while (size < this.pos + n) size *= 2
    const next = new Uint8Array(size)
    next.set(this.buf.subarray(0, this.pos))
    this.buf = next
  }

  /** Unsigned varint of a non-negative safe integer. */
  uvarint(v: number): void {
    this.ensure(10)
    const b = this.buf
    while (v > 0x7f) {
      b[this.pos++] = (v & 0x7f) | 0x80
      v = Math.floor(v / 128)
    }
    b[this.pos++] = v
  }

  /** Varint of any int64/uint64 value given as a bigint (two's complement for negatives). */
  bigvarint(v: bigint): void {
    let u = BigInt.asUintN(64, v)
    this.ensure(10)
    while (u > 0x7fn) {
      this.buf[this.pos++] = Number(u & 0x7fn) | 0x80
      u >>= 7n
    }
    this.buf[this.pos++] = Number(u)
  }

  int64(v: number | bigint): void {
    if (typeof v === 'number' && v >= 0) this.uvarint(v)
    else if (typeof v === 'bigint' && v >= 0n && v <= 0xffffffffffffffffn) this.splitvarint(v)
    else this.bigvarint(BigInt(v))
  }

  /** Varint of a non-negative 64-bit bigint, with two bigint operations in all. */
  private splitvarint(v: bigint): void {
    let hi = Number(v >> 32n)
    let lo = Number(v & 0xffffffffn)
    this.ensure(10)
    const b = this.buf
    // Emit 7 bits at a time from the 64-bit value (hi:lo) using 32-bit number arithmetic.
    while (hi > 0 || lo > 0x7f) {
      b[this.pos++] = (lo & 0x7f) | 0x80
      lo = ((lo >>> 7) | ((hi & 0x7f) << 25)) >>> 0
      hi = hi >>> 7
    }
    b[this.pos++] = lo
  }

  tag(field: number, wire: number): void {
    const t = (field << 3) | wire
    if (t < 128) {
      this.ensure(1)
      this.buf[this.pos++] = t
    } else this.uvarint(t)
  }

  double(v: number): void {
    this.ensure(8)
    f64[0] = v
    const b = this.buf
    const p = this.pos
    // Eight stores beat a TypedArray.set call at this size.
    b[p] = f64bytes[0]
    b[p + 1] = f64bytes[1]
    b[p + 2] = f64bytes[2]
    b[p + 3] = f64bytes[3]
    b[p + 4] = f64bytes[4]
    b[p + 5] = f64bytes[5]
    b[p + 6] = f64bytes[6]
    b[p + 7] = f64bytes[7]
    this.pos = p + 8
  }

  string(s: string): void {
    const n = s.length
    this.ensure(n * 3 + 10)
    // Optimistic ASCII path: write the length for n bytes and the bytes directly.
    const lenPos = this.pos
    if (n < 128) this.buf[this.pos++] = n
    else this.uvarint(n)
    const start = this.pos
    const b = this.buf
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i)
      if (c > 0x7f) {
        this.pos = lenPos
        this.bytes(textEncoder.encode(s))
        return
      }
      b[start + i] = c
    }
    this.pos = start + n
  }

  /**
   * Copies an ASCII string's characters to `buf` from `at` (room checked by the caller) and
   * returns the position after them, or -1 at the first non-ASCII character (nothing to undo:
   * the caller writes that entry again by the general path).
   */
  ascii(s: string, at: number): number {
    const b = this.buf
    const n = s.length
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i)
      if (c > 0x7f) return -1
      b[at + i] = c
    }
    return at + n
  }

  bytes(v: Uint8Array): void {
    this.uvarint(v.length)
    this.ensure(v.length)
    this.buf.set(v, this.pos)
    this.pos += v.length
  }

  /** Starts a length-delimited message; returns a mark for `end`. Reserves `guess` bytes. */
  begin(field: number, guess = 1): number {
    this.tag(field, 2)
    this.ensure(guess)
    this.pos += guess
    return this.pos * 16 + guess
  }

  end(mark: number): void {
    const guess = mark % 16
    const start = (mark - guess) / 16
    const len = this.pos - start
    let need = 1
    for (let v = len; v > 0x7f; v = Math.floor(v / 128)) need++
    if (need !== guess) {
      if (need > guess) this.ensure(need - guess)
      this.buf.copyWithin(start + need - guess, start, this.pos)
      this.pos += need - guess
    }
    const save = this.pos
    this.pos = start - guess
    this.uvarint(len)
    this.pos = save
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.pos)
  }
}
