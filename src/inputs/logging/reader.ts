/**
 * Turns the bytes of one file into log messages: lines split on `\n` (every supported
 * encoding keeps 0x0A for the newline alone), decoded, optionally stripped of ANSI escapes,
 * cut at a maximum length, and joined into multiline entries. Each message carries the file
 * offset just after its last byte, which is what the position store may save once it is sent.
 */

import { TextDecoder } from 'node:util'

export interface Message {
  text: string
  /** File offset just past the message's last line (its newline included). */
  end: number
}

export interface ReaderOptions {
  /** A WHATWG encoding label: utf-8, gbk, gb18030. */
  encoding: string
  /** Bytes kept of one line; the rest up to its newline is dropped and counted. */
  maxLength: number
  /** A line matching starts a new entry; other lines continue the previous one. */
  multiline: RegExp | null
  removeAnsi: boolean
}

// CSI sequences (colours, cursor moves), OSC sequences (titles) and two-byte escapes; matching
// ESC and BEL is the point here.
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g

export function removeAnsi(s: string): string {
  return s.replace(ANSI, '')
}

export class LineReader {
  /** Lines cut at maxLength since the last call to `takeTruncated`. */
  private truncatedLines = 0
  private parts: Buffer[] = []
  private partLen = 0
  private cut = false
  private pending: Message | null = null
  private readonly decoder: TextDecoder

  constructor(
    private readonly o: ReaderOptions,
    /** Offset of the next byte `push` receives. */
    private offset: number,
  ) {
    this.decoder = new TextDecoder(o.encoding)
  }

  push(chunk: Buffer): Message[] {
    const out: Message[] = []
    let pos = 0
    for (;;) {
      const nl = chunk.indexOf(0x0a, pos)
      if (nl < 0) break
      this.append(chunk.subarray(pos, nl))
      this.line(this.offset + nl + 1, out)
      pos = nl + 1
    }
    this.append(chunk.subarray(pos))
    this.offset += chunk.length
    return out
  }

  /**
   * Emits the open multiline entry (the writer has gone quiet); with `eof` (a rotated file
   * that will not grow again) also a last line that has no newline.
   */
  flush(eof: boolean): Message[] {
    const out: Message[] = []
    if (eof && this.partLen > 0) this.line(this.offset, out)
    if (this.pending) out.push(this.pending)
    this.pending = null
    return out
  }

  takeTruncated(): number {
    const n = this.truncatedLines
    this.truncatedLines = 0
    return n
  }

  private append(bytes: Buffer): void {
    const room = this.o.maxLength - this.partLen
    if (bytes.length > room) this.cut = true
    const kept = bytes.length > room ? bytes.subarray(0, room) : bytes
    // Copied: the chunk buffer is reused by the next read.
    if (kept.length) this.parts.push(Buffer.from(kept))
    this.partLen += kept.length
  }

  private line(end: number, out: Message[]): void {
    let buf = Buffer.concat(this.parts, this.partLen)
    if (buf.at(-1) === 0x0d) buf = buf.subarray(0, -1)
    if (this.cut) this.truncatedLines++
    this.parts = []
    this.partLen = 0
    this.cut = false
    let text = this.decoder.decode(buf)
    if (this.o.removeAnsi) text = removeAnsi(text)
    if (text.trim() === '') return
    this.entry(text, end, out)
  }

  private entry(text: string, end: number, out: Message[]): void {
    const re = this.o.multiline
    if (!re) return void out.push({ text, end })
    const p = this.pending
    // An entry grows only up to the line limit, so memory stays bounded.
    if (!p || re.test(text) || p.text.length + text.length >= this.o.maxLength) {
      if (p) out.push(p)
      this.pending = { text, end }
    } else {
      p.text += '\n' + text
      p.end = end
    }
  }
}
