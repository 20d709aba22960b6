/**
 * One line protocol line to a Point (spec 2.3): measurement, tags, fields, optional timestamp.
 *
 * Invariants:
 * - One pass over the line: it ends at the first line break outside a quoted string, and
 *   `cursor` is left just past it for the body loop (parse.ts).
 * - A bad line throws `LineError` with the reference's reason; nothing else is thrown.
 * - Module state (`escaped`, `unusual`, `cursor`) is set per call, so a parse is synchronous.
 */
import { Hint, Kind, newPoint, type Point } from '../../shared/point.js'
import { unescapeName } from './scan.js'
import { codes } from './codes.js'
import { digitsToBigInt } from './time.js'
import { LineError, type ValueOut } from './token.js'
import { scanArray, scanScalar } from './values.js'

const TAB = 9
const NL = 10
const CR = 13
const SPACE = 32
const COMMA = 44
const EQ = 61
const BACKSLASH = 92
const OPEN = 91
const DOT = 46

/** Set by `nameEnd`: whether the scanned name holds an escape. */
let escaped = false
/** Set by `nameEnd`/`name`: the line has a name the checks must look at (see Hint.CLEAN). */
let unusual = false
/** Set by `parseLine`: index just past the parsed line. */
export let cursor = 0

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
