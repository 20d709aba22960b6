/**
 * A minimal protobuf wire reader for PBPoints bodies. Every read is bounds-checked and a
 * malformed body raises `PbError`, never a RangeError from a typed array.
 */
export class PbError extends Error {}

export class PbReader {
  pos: number
  private readonly view: DataView
  private readonly text: Buffer

  constructor(
    readonly buf: Uint8Array,
    pos = 0,
    readonly end = buf.length,
    view?: DataView,
    text?: Buffer,
  ) {
    this.pos = pos
    // Sub-readers share their parent's view: one DataView per body, not per field.
    this.view = view ?? new DataView(buf.buffer, buf.byteOffset, buf.byteLength)
    this.text = text ?? Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength)
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

  /**
   * A varint of at most 7 bytes (below 2^49) as a number, the common case, without BigInt
   * work; -1 when it is longer, with the position left unchanged.
   */
  private smallVarint(): number {
    let result = 0
    let mul = 1
    for (let i = this.pos; i < this.end && i < this.pos + 7; i++) {
      const b = this.buf[i]
      result += (b & 0x7f) * mul
      if (b < 0x80) {
        this.pos = i + 1
        return result
      }
      mul *= 128
    }
    return -1
  }

  bool(): boolean {
    const v = this.smallVarint()
    return v >= 0 ? v !== 0 : this.bigvarint() !== 0n
  }

  int64(): number | bigint {
    const small = this.smallVarint()
    if (small >= 0) return small
    const v = BigInt.asIntN(64, this.bigvarint())
    return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v
  }

  uint64(): number | bigint {
    const small = this.smallVarint()
    if (small >= 0) return small
    const v = this.bigvarint()
    return v <= 9007199254740991n ? Number(v) : v
  }

  double(): number {
    if (this.pos + 8 > this.end) throw new PbError('truncated double')
    const v = this.view.getFloat64(this.pos, true)
    this.pos += 8
    return v
  }

  /** fixed64 as a bigint (OTLP's times and counts). */
  fixed64(): bigint {
    if (this.pos + 8 > this.end) throw new PbError('truncated fixed64')
    const v = this.view.getBigUint64(this.pos, true)
    this.pos += 8
    return v
  }

  fixed32(): number {
    if (this.pos + 4 > this.end) throw new PbError('truncated fixed32')
    const v = this.view.getUint32(this.pos, true)
    this.pos += 4
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
    const len = this.uvarint()
    const start = this.pos
    if (start + len > this.end) throw new PbError('truncated length-delimited field')
    this.pos += len
    // Buffer's native UTF-8 slice: far cheaper per call than TextDecoder on a subarray.
    return this.text.toString('utf8', start, start + len)
  }

  /** A reader over the next length-delimited field. */
  sub(): PbReader {
    const len = this.uvarint()
    const start = this.pos
    if (start + len > this.end) throw new PbError('truncated length-delimited field')
    this.pos += len
    return new PbReader(this.buf, start, start + len, this.view, this.text)
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
