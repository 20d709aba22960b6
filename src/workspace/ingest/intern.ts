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

  /** The same bytes as a Buffer, for its native UTF-8 slice without a view per string. */
  private readonly text: Buffer

  constructor(private readonly buf: Uint8Array) {
    this.text = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength)
  }

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
    const text = this.text.toString('utf8', start, start + len)
    if (l) {
      l.start = start
      l.len = len
      l.text = text
    } else this.last[slot] = { start, len, text }
    return text
  }
}
