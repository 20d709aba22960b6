/**
 * RowBinary, ClickHouse's row format for inserts: values in column order, little-endian,
 * strings as a LEB128 length and their bytes, a Nullable value preceded by one byte (1: null).
 * The writer grows its buffer by doubling; one body is encoded at a time.
 */
/** Writes `n` as LEB128 at `pos` (room for 10 bytes is the caller's); the position after it. */
export function putLength(buf: Buffer, pos: number, n: number): number {
  let len = n
  while (len >= 0x80) {
    buf[pos++] = (len & 0x7f) | 0x80
    len >>>= 7
  }
  buf[pos++] = len
  return pos
}

export class RowBinaryWriter {
  private buf = Buffer.allocUnsafe(64 * 1024)
  private pos = 0

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return
    let size = this.buf.length * 2
    while (size < this.pos + n) size *= 2
    const next = Buffer.allocUnsafe(size)
    this.buf.copy(next, 0, 0, this.pos)
    this.buf = next
  }

  uint8(v: number): void {
    this.room(1)
    this.buf[this.pos++] = v
  }

  /** A `Date` is a UInt16: days since 1970-01-01. */
  uint16(v: number): void {
    this.room(2)
    this.buf.writeUInt16LE(v, this.pos)
    this.pos += 2
  }

  int64(v: bigint): void {
    this.room(8)
    this.buf.writeBigInt64LE(v, this.pos)
    this.pos += 8
  }

  uint64(v: bigint): void {
    this.room(8)
    this.buf.writeBigUInt64LE(v, this.pos)
    this.pos += 8
  }

  float64(v: number): void {
    this.room(8)
    this.buf.writeDoubleLE(v, this.pos)
    this.pos += 8
  }

  private lengthPrefix(n: number): void {
    this.room(n + 10)
    this.pos = putLength(this.buf, this.pos, n)
  }

  string(v: string): void {
    this.lengthPrefix(Buffer.byteLength(v))
    this.pos += this.buf.write(v, this.pos)
  }

  /** Bytes as a String value (ClickHouse strings are bytes). */
  binary(v: Uint8Array): void {
    this.lengthPrefix(v.length)
    this.buf.set(v, this.pos)
    this.pos += v.length
  }

  /** Bytes already in RowBinary (a value encoded once by `encodeString`, written per row). */
  raw(v: Uint8Array): void {
    this.room(v.length)
    this.buf.set(v, this.pos)
    this.pos += v.length
  }

  /** A Nullable value: the null flag, then the value unless null. */
  nullable<T>(v: T | null | undefined, write: (v: T) => void): void {
    if (v === null || v === undefined) return this.uint8(1)
    this.uint8(0)
    write(v)
  }

  /** The bytes written so far (a copy-free view, valid until the next write). */
  bytes(): Buffer {
    return this.buf.subarray(0, this.pos)
  }

  get length(): number {
    return this.pos
  }
}

/** A non-null Nullable(String) value as RowBinary bytes: the flag, the length, the text. */
export function encodeNullableString(v: string): Buffer {
  const n = Buffer.byteLength(v)
  const out = Buffer.allocUnsafe(n + 11)
  out[0] = 0
  const at = putLength(out, 1, n)
  return out.subarray(0, at + out.write(v, at))
}
