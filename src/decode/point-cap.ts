/**
 * Watches a line protocol body while it is being inflated and says, as early as it can, that the
 * body holds more than `maxPoints` points, so a bomb of millions of tiny lines is refused after
 * inflating and parsing a little more than the cap instead of the whole body.
 *
 * Invariant: it refuses only a body the full parse would refuse with `tooManyPoints`. Points are
 * at most the lines, so nothing is parsed before `maxPoints + 1` newlines; then the prefix up to
 * its last newline is parsed and must hold `maxPoints + 2` points: the parser reads lines in
 * order, so the first `maxPoints + 1` of them (each followed by another point, hence ending
 * before the cut even when a quoted string spans a newline) are the full parse's too, and the
 * full parse stops there. A body opening with `[` may be JSON sent as text: never probed.
 */
import { parseLines } from './lp/parse.js'
import { tooMany } from './parse-body.js'

const NL = 10
const OPEN_BRACKET = 91

function firstSolid(b: Uint8Array): number {
  for (const c of b) if (c !== 32 && c !== 9 && c !== 13 && c !== NL) return c
  return -1
}

export class PointCap {
  private newlines = 0
  private decided = false
  private off = false
  private nextProbe = 0

  constructor(private readonly maxPoints: number) {
    this.off = !Number.isFinite(maxPoints)
  }

  /** Called with each new chunk and every byte inflated so far (`all()` joins them lazily). */
  see(chunk: Uint8Array, total: number, all: () => Uint8Array): void {
    if (this.off) return
    if (!this.decided) {
      const c = firstSolid(chunk)
      if (c === OPEN_BRACKET) this.off = true
      if (c !== -1) this.decided = true
      if (this.off) return
    }
    if (this.newlines <= this.maxPoints + 1) this.newlines += countNewlines(chunk)
    if (this.newlines <= this.maxPoints + 1 || total < this.nextProbe) return
    // Each probe parses the prefix again: probing at doubling sizes keeps the total linear.
    this.nextProbe = total * 2
    if (this.holdsTooMany(all())) throw tooMany(this.maxPoints)
  }

  private holdsTooMany(bytes: Uint8Array): boolean {
    const cut = bytes.lastIndexOf(NL) + 1
    const prefix = bytes.subarray(0, cut)
    const text = Buffer.from(prefix.buffer, prefix.byteOffset, prefix.byteLength).toString('utf8')
    // Counted, not kept: 250,000 parsed points would hold about 90 MB of heap until refused.
    return parseLines(text, prefix, 0, this.maxPoints + 1, false).count > this.maxPoints + 1
  }
}

/** Slices a plain body is looked at in, as an inflated one arrives. */
const PLAIN_SLICE = 256 * 1024

/**
 * The same watch over an uncompressed body, read in slices as if it were being inflated: a
 * 64 MiB body of tiny lines is refused after counting a little more than the cap, before any
 * of it is decoded. A body of at most `maxPoints + 1` bytes cannot hold enough lines to matter.
 */
export function capPlain(body: Uint8Array, maxPoints: number): void {
  if (body.length <= maxPoints + 1) return
  const cap = new PointCap(maxPoints)
  for (let at = 0; at < body.length; at += PLAIN_SLICE) {
    const end = Math.min(body.length, at + PLAIN_SLICE)
    cap.see(body.subarray(at, end), end, () => body.subarray(0, end))
  }
}

function countNewlines(b: Uint8Array): number {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength)
  let n = 0
  for (let i = buf.indexOf(NL); i !== -1; i = buf.indexOf(NL, i + 1)) n++
  return n
}
