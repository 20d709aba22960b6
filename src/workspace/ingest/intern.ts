/**
 * Strings of a protobuf body decoded once per repeat: points of one body mostly repeat their
 * keys and many values at the same position, so each position (a small integer chosen by the
 * caller) remembers its last bytes and string, and equal bytes return the same string without
 * decoding UTF-8 again.
 */
import { PbError, type PbReader } from '../../decode/codec/pb-reader.js'

interface Last {
  start: number
  len: number
  text: string
}

export class Interner {
  private readonly last: (Last | undefined)[] = []

  constructor(private readonly buf: Uint8Array) {}

  /** The length-delimited string at the reader's position, remembered under `slot`. */
  read(r: PbReader, slot: number): string {
    const len = r.uvarint()
    const start = r.pos
    if (start + len > r.end) throw new PbError('truncated length-delimited field')
    r.pos += len
    const buf = this.buf
    const l = this.last[slot]
    if (l && l.len === len) {
      let i = 0
      while (i < len && buf[start + i] === buf[l.start + i]) i++
      if (i === len) return l.text
    }
    const text = Buffer.from(buf.buffer, buf.byteOffset + start, len).toString('utf8')
    this.last[slot] = { start, len, text }
    return text
  }
}
