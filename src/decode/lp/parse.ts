/**
 * Line protocol parser (spec 2.3), all-or-nothing per body like the reference agent: every bad
 * line is reported with its byte position, and the caller rejects the body if any line failed.
 *
 * Invariants:
 * - One pass over the body on the success path: a point ends at the first line break outside a
 *   quoted string. After an error the bad line's extent comes from `lineEnd` (the reference's
 *   line splitting), so one bad line never swallows the next.
 * - Never throws out of `parseLines`; runs in time linear in the body.
 * - Lines that are blank or whose first non-blank character is `#` are skipped. Leading spaces,
 *   tabs, CR and NUL bytes of a line are skipped; a CR before the line break is ignored.
 */
import { Hint, Kind, newPoint, type Point } from '../../shared/point.js'
import { lineEnd, unescapeName } from './scan.js'
import { clearCodes, codes, setCodes } from './codes.js'
import { LineError, scanArray, scanScalar, type ValueOut } from './values.js'

const TAB = 9
const NL = 10
const CR = 13
const SPACE = 32
const COMMA = 44
const EQ = 61
const BACKSLASH = 92
const OPEN = 91
const HASH = 35
const DOT = 46

export interface BadLine {
  line: string
  /** 1-based byte offset of the line in the body. */
  pos: number
  reason: string
}

export interface LpResult {
  points: Point[]
  /** Points read (`points.length` unless they were not kept). */
  count: number
  bad: BadLine[]
  /** Number of bad lines (`bad` keeps only the first `maxReported`). */
  failed: number
}

/** Set by `nameEnd`: whether the scanned name holds an escape. */
let escaped = false
/** Set by `nameEnd`/`name`: the line has a name the checks must look at (see Hint.CLEAN). */
let unusual = false
/** Set by `parseLine`: index just past the parsed line. */
let cursor = 0

/** Scans a name to its unescaped terminator: `,`, space, line break, and `=` unless measurement. */
function nameEnd(s: string, i: number, n: number, stopAtEq: boolean): number {
  const cc = codes
  escaped = false
  while (i < n) {
    const c = cc[i]
    if (c === BACKSLASH && i + 1 < n) {
      const d = cc[i + 1]
      if (d === COMMA || d === EQ || d === SPACE) {
        escaped = true
        i += 2
        continue
      }
    }
    if (c === COMMA || c === SPACE || c === NL || (c === EQ && stopAtEq)) return i
    if (c === DOT || c === BACKSLASH || c > 127) unusual = true
    i++
  }
  return i
}

function name(s: string, a: number, b: number): string {
  if (b - a > 85) unusual = true // may pass the 256-byte key limit: let the checks measure
  return escaped ? unescapeName(s.slice(a, b)) : s.slice(a, b)
}

function atLineEnd(s: string, i: number, n: number): boolean {
  const cc = codes
  return i >= n || cc[i] === NL || cc[i] === CR
}

function skipBlanks(s: string, i: number, n: number): number {
  const cc = codes
  while (i < n && (cc[i] === SPACE || cc[i] === TAB)) i++
  return i
}

function parseTags(s: string, i: number, n: number, p: Point): number {
  const cc = codes
  while (i < n && cc[i] === COMMA) {
    i++
    const ke = nameEnd(s, i, n, true)
    if (ke === i) throw new LineError('missing tag key')
    if (ke >= n || cc[ke] !== EQ) throw new LineError('missing tag value')
    const key = name(s, i, ke)
    const ve = nameEnd(s, ke + 1, n, true)
    if (ve < n && cc[ve] === EQ) throw new LineError('invalid tag format')
    if (ve === ke + 1) throw new LineError('missing tag value')
    for (let t = 0; t < p.tags.length; t++) {
      if (p.tags[t].key === key) throw new LineError('duplicate tags')
    }
    p.tags.push({ key, value: name(s, ke + 1, ve) })
    i = ve
  }
  return i
}

function setField(p: Point, key: string, v: ValueOut): void {
  if (v.kind === Kind.ARRAY && v.value === null) return // `f=[]` carries nothing
  const fields = p.fields
  for (let k = 0; k < fields.length; k++) {
    if (fields[k].key === key) {
      fields[k] = { key, kind: v.kind, value: v.value } // duplicate field key: last wins
      return
    }
  }
  fields.push({ key, kind: v.kind, value: v.value })
}

const value: ValueOut = { kind: Kind.NIL, value: null }

function parseFields(s: string, i: number, n: number, p: Point): number {
  const cc = codes
  for (;;) {
    const ke = nameEnd(s, i, n, true)
    if (ke >= n || cc[ke] !== EQ) throw new LineError('invalid field format')
    if (ke === i) throw new LineError('missing field key')
    const key = name(s, i, ke)
    const vs = ke + 1
    const c = vs < n ? cc[vs] : NL
    if (c === COMMA || c === SPACE || c === NL || c === CR)
      throw new LineError('missing field value')
    i = c === OPEN ? scanArray(s, vs, n, value) : scanScalar(s, vs, n, false, value)
    setField(p, key, value)
    if (atLineEnd(s, i, n) || cc[i] === SPACE) return i
    if (cc[i] !== COMMA) throw new LineError('invalid field format')
    i++
    if (atLineEnd(s, i, n) || cc[i] === SPACE) throw new LineError('invalid field format')
  }
}

const MAX_TIME = 9223372036854775806n

/** Decimal digits to bigint, splitting long numbers so the hot path builds no string. */
function digitsToBigInt(s: string, a: number, b: number): bigint {
  const cc = codes
  const neg = cc[a] === 45
  const from = neg ? a + 1 : a
  if (from >= b) throw new LineError('bad timestamp')
  let hi = 0
  let lo = 0
  const split = Math.max(from, b - 9)
  for (let k = from; k < b; k++) {
    const d = cc[k] - 48
    if (d < 0 || d > 9) throw new LineError('bad timestamp')
    if (k < split) hi = hi * 10 + d
    else lo = lo * 10 + d
  }
  const abs = b - from > 19 ? BigInt(s.slice(from, b)) : BigInt(hi) * 1_000_000_000n + BigInt(lo)
  if (abs > 9223372036854775807n + (neg ? 1n : 0n)) {
    throw new LineError(`strconv.ParseInt: parsing "${s.slice(a, b)}": value out of range`)
  }
  if (abs > MAX_TIME) throw new LineError(`time outside range -${MAX_TIME} - ${MAX_TIME}`)
  return neg ? -abs : abs
}

/** Optional timestamp, then the line must end; sets `cursor` past the line break. */
function parseTime(s: string, i: number, n: number): bigint | null {
  const cc = codes
  i = skipBlanks(s, i, n)
  let t: bigint | null = null
  if (!atLineEnd(s, i, n)) {
    let e = i
    while (e < n) {
      const c = cc[e]
      if (c === SPACE || c === TAB || c === NL || c === CR) break
      e++
    }
    t = digitsToBigInt(s, i, e)
    i = e
  }
  while (i < n && (cc[i] === SPACE || cc[i] === TAB || cc[i] === CR)) i++
  if (i < n && cc[i] !== NL) throw new LineError('point is invalid')
  cursor = i + 1
  return t
}

/** Parses the line starting at `start` (not blank); sets `cursor` past it. */
export function parseLine(s: string, start: number, n: number): Point {
  unusual = false
  const cc = codes
  const me = nameEnd(s, start, n, false)
  if (me === start)
    throw new LineError(cc[start] === COMMA ? 'missing measurement' : 'missing fields')
  const p = newPoint(name(s, start, me))
  let i = parseTags(s, me, n, p)
  if (atLineEnd(s, i, n)) throw new LineError('missing fields')
  i = skipBlanks(s, i, n)
  if (atLineEnd(s, i, n)) throw new LineError('missing fields')
  i = parseFields(s, i, n, p)
  p.time = parseTime(s, i, n)
  // Duplicate tags are an error and duplicate fields collapse, so keys are always unique.
  p.hints = unusual ? Hint.UNIQUE : Hint.UNIQUE | Hint.CLEAN
  return p
}

function isLineBlank(c: number): boolean {
  return c === SPACE || c === TAB || c === CR || c === 0
}

/**
 * Parses a whole body. Bad lines are collected, never thrown. `bytes`, when given, are the
 * body's UTF-8 bytes: an ASCII body is then scanned without a copy. Parsing stops once
 * `maxPoints + 1` points are read: the caller refuses such a body, and stopping keeps a body
 * of millions of tiny lines from materialising them all. `keep` false counts points without
 * keeping them (`count`; `points` stays empty): what the point cap needs to know, at the cost
 * of short-lived objects only.
 */
export function parseLines(
  s: string,
  bytes?: Uint8Array,
  maxReported = 100,
  maxPoints = Infinity,
  keep = true,
): LpResult {
  setCodes(s, bytes)
  const cc = codes
  const points: Point[] = []
  const bad: BadLine[] = []
  let failed = 0
  let count = 0
  let byteBase = 0 // bytes before charBase, advanced lazily for error positions
  let charBase = 0
  const n = s.length
  let i = 0
  while (i < n) {
    let st = i
    while (st < n && isLineBlank(cc[st])) st++
    if (st >= n) break
    const c = cc[st]
    if (c === NL) {
      i = st + 1
      continue
    }
    if (c === HASH) {
      i = lineEnd(s, st) + 1
      continue
    }
    try {
      const p = parseLine(s, st, n)
      if (keep) points.push(p)
      if (++count > maxPoints) break
      i = cursor
    } catch (e) {
      if (!(e instanceof LineError)) throw e
      const nl = lineEnd(s, st)
      failed++
      if (bad.length < maxReported) {
        byteBase += Buffer.byteLength(s.slice(charBase, i))
        charBase = i
        const end = nl > st && cc[nl - 1] === CR ? nl - 1 : nl
        bad.push({ line: s.slice(st, end), pos: byteBase + 1, reason: e.reason })
      }
      i = nl + 1
    }
  }
  clearCodes()
  return { points, count, bad, failed }
}
