/**
 * Byte-level transcoder for the common write: a line protocol body straight to the PBPoints
 * upload bytes, without a string or an object per point. It scans the body once (one reused
 * table of byte ranges per line) and copies key and value bytes into one reused output buffer.
 *
 * Invariants:
 * - The result is byte for byte what the general path (parse, times, checks, global tags,
 *   encode) gives for the same task, with no warnings; a property test holds the two together.
 * - Anything the fast path does not do exactly like the general one (escapes, non-ASCII,
 *   comments, exponents, arrays, bytes, long integers, duplicate keys, a correction of any
 *   kind, a timestamp out of range) makes it return null: the caller takes the general path.
 */
import { PbWriter } from '../codec/pb-writer.js'
import { writeTag } from '../codec/protobuf.js'
import { FACTOR, type Precision } from '../precision.js'
import { Out, bound, writePoint } from './fast-out.js'
import { BAIL, Line, type ScanRules } from './fast-line.js'
import { scanLine } from './fast-scan.js'

export interface TranscodeInput {
  body: Uint8Array
  rules: ScanRules
  precision: Precision | null
  now: bigint
  extraTags: readonly (readonly [string, string])[]
  maxPoints: number
}

export interface Transcoded {
  payload: Uint8Array
  points: number
}

const TWO32 = 4294967296
const MAX_TIME = 9223372036854775806n
const INT64_MAX = 9223372036854775807n

const line = new Line()
const out = new Out()
/** Output buffers past this size are not kept between tasks. */
const KEEP = 4 << 20

/** The global tags, encoded once per task, and their keys for the presence test. */
interface Extras {
  bytes: Uint8Array[]
  keys: Uint8Array[]
  absent: Uint8Array
  size: number
}

function encodeExtras(tags: readonly (readonly [string, string])[]): Extras {
  const bytes = tags.map(([k, v]) => {
    const w = new PbWriter(64)
    writeTag(w, k, v)
    return w.finish()
  })
  const keys = tags.map(([k]) => Buffer.from(k, 'utf8'))
  const size = bytes.reduce((s, x) => s + x.length, 0)
  return { bytes, keys, absent: new Uint8Array(tags.length), size }
}

/** For each global tag: is its key neither a tag nor a field key of the line? */
function markAbsent(b: Uint8Array, ex: Extras): void {
  const n = line.tags + line.fields
  for (let x = 0; x < ex.keys.length; x++) {
    const key = ex.keys[x]
    let found = false
    for (let k = 0; k < n && !found; k++) {
      const a = line.keys[2 * k]
      if (line.keys[2 * k + 1] - a !== key.length) continue
      let j = 0
      while (j < key.length && b[a + j] === key[j]) j++
      found = j === key.length
    }
    ex.absent[x] = found ? 0 : 1
  }
}

/** The line's time in ns as [hi, lo] 32-bit halves, or null where the general path errs. */
function lineTime(b: Uint8Array, precision: Precision | null, now: bigint): number[] | null {
  const a = line.timeStart
  const e = line.timeEnd
  let hi = 0
  let lo = 0
  for (let i = a; i < e; i++) {
    lo = lo * 10 + (b[i] - 48)
    const carry = Math.floor(lo / TWO32)
    lo -= carry * TWO32
    hi = hi * 10 + carry
  }
  if (hi === 0 && lo === 0) return split(now)
  const digits = e - a
  const factor = precision
    ? FACTOR[precision]
    : digits <= 10
      ? FACTOR.s
      : digits <= 13
        ? FACTOR.ms
        : digits <= 16
          ? FACTOR.u
          : 1n
  if (factor === 1n) {
    if (hi > 0x7fffffff || (hi === 0x7fffffff && lo > 0xfffffffe)) return null
    return [hi, lo]
  }
  const raw = BigInt(hi) * 4294967296n + BigInt(lo)
  if (raw > MAX_TIME) return null
  const t = raw * factor
  return t > INT64_MAX ? null : split(t)
}

function split(t: bigint): number[] {
  return [Number(t >> 32n), Number(t & 0xffffffffn)]
}

/** Transcodes the body, or returns null when it needs the general path. */
export function transcodeLp(t: TranscodeInput): Transcoded | null {
  const b = t.body
  const n = b.length
  if (new Set(t.extraTags.map(([k]) => k)).size !== t.extraTags.length) return null
  const ex = encodeExtras(t.extraTags)
  out.pos = 0
  let points = 0
  let i = 0
  while (i < n) {
    const c = b[i]
    if (c === 10) {
      i++
      continue
    }
    if (c <= 32 || points >= t.maxPoints) return null
    const next = scanLine(b, i, n, line, t.rules)
    if (next === BAIL) return null
    const time = lineTime(b, t.precision, t.now)
    if (time === null) return null
    markAbsent(b, ex)
    out.ensure(bound(line, next - i, ex.size))
    writePoint(out, b, line, i, ex.bytes, ex.absent, time[0], time[1])
    points++
    i = next
  }
  if (points === 0) return null
  const payload = out.buf.slice(0, out.pos)
  if (out.buf.length > KEEP) out.buf = new Uint8Array(1 << 16)
  return { payload, points }
}
