/**
 * Byte-level transcoder for the common write: a line protocol body straight to the PBPoints
 * upload bytes, without a string or an object per point. It scans the body once (one reused
 * table of byte ranges per line) and copies key and value bytes into one reused output buffer.
 *
 * Invariants:
 * - The result is byte for byte what the general path (parse, times, checks, global tags,
 *   encode) gives for the same task, with the same correction counts; a property test holds the
 *   two together. The corrections it makes itself are the ones that only leave out or add
 *   whole entries: strings of a category that drops them, disabled keys, required keys.
 * - Anything the fast path does not do exactly like the general one (escapes other than those
 *   of `fast-line.ts`, non-ASCII, comments, exponents, arrays, bytes, long integers, duplicate
 *   keys, any other correction, a point left without fields, a timestamp out of range) makes it
 *   return null: the caller takes the general path.
 */
import { Kind } from '../../shared/point.js'
import { PAYLOAD_ROOM, withRoom } from '../../shared/payload-room.js'
import { PbWriter } from '../codec/pb-writer.js'
import { writeField, writeTag } from '../codec/protobuf.js'
import { FACTOR, type Precision } from '../precision.js'
import { bound, writePoint, type Additions } from './fast-out.js'
import { Out } from './fast-writer.js'
import { applyKeyRules, plainKey, type Corrections, type KeyRules } from './fast-keys.js'
import { BAIL, Line, type ScanRules } from './fast-line.js'
import { scanLine } from './fast-scan.js'

type Pairs = readonly (readonly [string, string])[]

export interface TranscodeInput {
  body: Uint8Array
  rules: ScanRules
  /** The category's disabled keys (left out) and required keys with their defaults (added). */
  disabledKeys: readonly string[]
  required: Pairs
  precision: Precision | null
  now: bigint
  extraTags: Pairs
  maxPoints: number
}

export interface Transcoded {
  /** A view with `room` free bytes before it in its own buffer (shared/payload-room.ts). */
  payload: Uint8Array
  room: number
  points: number
  /** Corrections by the general path's warning names, as `checkPoint` counts them. */
  warnings: Record<string, number>
}

const TWO32 = 4294967296
const MAX_TIME = 9223372036854775806n
const INT64_MAX = 9223372036854775807n

const line = new Line()
const out = new Out()
/** Output buffers past this size are not kept between tasks. */
const KEEP = 4 << 20

const utf8 = (k: string) => Buffer.from(k, 'utf8')

function encoded(write: (w: PbWriter) => void): Uint8Array {
  const w = new PbWriter(64)
  write(w)
  return w.finish()
}

/** Global tags and required fields encoded once per task; null where the keys need care. */
function prepare(t: TranscodeInput): [Additions, KeyRules, Uint8Array[]] | null {
  const keys = t.extraTags.map(([k]) => k)
  const special = [...t.disabledKeys, ...t.required.map(([k]) => k)]
  if (new Set(keys).size !== keys.length || !keys.every(plainKey)) return null
  if (!special.every(plainKey) || keys.some((k) => special.includes(k))) return null
  const tags = t.extraTags.map(([k, v]) => encoded((w) => writeTag(w, k, v)))
  const fields = t.required.map(([key, value]) =>
    encoded((w) => writeField(w, { key, kind: Kind.STRING, value })),
  )
  const size = [...tags, ...fields].reduce((s, x) => s + x.length, 0)
  const add = {
    tags,
    fields,
    size,
    tagsOn: new Uint8Array(tags.length),
    fieldsOn: new Uint8Array(fields.length),
  }
  const rules = { disabled: t.disabledKeys.map(utf8), required: t.required.map(([k]) => utf8(k)) }
  return [add, rules, keys.map(utf8)]
}

function warningsOf(c: Corrections): Record<string, number> {
  const w: Record<string, number> = {}
  if (c.dropped) w.invalid_field_value_type = c.dropped
  if (c.disabled) w.tag_disabled = c.disabled
  if (c.required) w.add_required_kv = c.required
  return w
}

/** The line's time in ns as [hi, lo] 32-bit halves, or null where the general path errs. */
function lineTime(b: Uint8Array, precision: Precision | null, now: bigint): number[] | null {
  const a = line.timeStart
  const e = line.timeEnd
  // Up to 15 digits a double holds the value exactly: no carry per digit. Past them (a ns
  // timestamp has 19) the value goes on as 32-bit halves, a carry per digit.
  const exact = Math.min(e, a + 15)
  let m = 0
  for (let i = a; i < exact; i++) m = m * 10 + (b[i] - 48)
  let hi = Math.floor(m / TWO32)
  let lo = m - hi * TWO32
  for (let i = exact; i < e; i++) {
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
  const prepared = prepare(t)
  if (!prepared) return null
  const [add, rules, globalKeys] = prepared
  const c: Corrections = { dropped: 0, disabled: 0, required: 0 }
  out.pos = 0
  let points = 0
  let i = 0
  while (i < n) {
    const ch = b[i]
    if (ch === 10) {
      i++
      continue
    }
    if (ch <= 32 || points >= t.maxPoints) return null
    const next = scanLine(b, i, n, line, t.rules)
    if (next === BAIL) return null
    const time = lineTime(b, t.precision, t.now)
    if (time === null || applyKeyRules(b, line, rules, add, globalKeys, c) === 0) return null
    out.ensure(bound(line, next - i, add.size))
    writePoint(out, b, line, i, add, time[0], time[1])
    points++
    i = next
  }
  if (points === 0) return null
  const payload = withRoom(out.buf, out.pos)
  if (out.buf.length > KEEP) out.buf = new Uint8Array(1 << 16)
  return { payload, room: PAYLOAD_ROOM, points, warnings: warningsOf(c) }
}
