/**
 * A minimal protobuf wire reader for PBPoints bodies. Every read is bounds-checked and a
 * malformed body raises `PbError`, never a RangeError from a typed array.
 */
export class PbError extends Error {}

const td = new TextDecoder()

export class PbReader {
  pos: number
  private readonly view: DataView

  constructor(
    readonly buf: Uint8Array,
    pos = 0,
    readonly end = buf.length,
  ) {
    this.pos = pos
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength)
  }

  done(): boolean {
    return this.pos >= this.end
  }

  /** Varint as a bigint (lossless for int64/uint64). */
  bigvarint(): bigint {
    let result = 0n
    let shift = 0n
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new PbError('truncated varint')
      const b = this.buf[this.pos++]
      result |= BigInt(b & 0x7f) << shift
      if (b < 0x80) return result
      shift += 7n
    }
    throw new PbError('varint too long')
  }

  /** Varint that must fit a safe integer (tags, lengths, enums). */
  uvarint(): number {
    let result = 0
    let mul = 1
    for (let i = 0; i < 8; i++) {
      if (this.pos >= this.end) throw new PbError('truncated varint')
      const b = this.buf[this.pos++]
      result += (b & 0x7f) * mul
      if (b < 0x80) return result
      mul *= 128
    }
    throw new PbError('varint too large')
  }

  int64(): number | bigint {
    const v = BigInt.asIntN(64, this.bigvarint())
    return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v
  }

  uint64(): number | bigint {
    const v = this.bigvarint()
    return v <= 9007199254740991n ? Number(v) : v
  }

  double(): number {
    if (this.pos + 8 > this.end) throw new PbError('truncated double')
    const v = this.view.getFloat64(this.pos, true)
    this.pos += 8
    return v
  }

  bytes(): Uint8Array {
    const len = this.uvarint()
    if (this.pos + len > this.end) throw new PbError('truncated length-delimited field')
    const v = this.buf.subarray(this.pos, this.pos + len)
    this.pos += len
    return v
  }

  string(): string {
    return td.decode(this.bytes())
  }

  /** A reader over the next length-delimited field. */
  sub(): PbReader {
    const b = this.bytes()
    return new PbReader(
      this.buf,
      b.byteOffset - this.buf.byteOffset,
      b.byteOffset - this.buf.byteOffset + b.length,
    )
  }

  skip(wire: number): void {
    if (wire === 0) this.bigvarint()
    else if (wire === 1) this.pos += 8
    else if (wire === 2) this.bytes()
    else if (wire === 5) this.pos += 4
    else throw new PbError(`unsupported wire type ${wire}`)
    if (this.pos > this.end) throw new PbError('truncated field')
  }
}
