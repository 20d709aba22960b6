/**
 * Field value scanners for line protocol. Each takes the cursor at the first character of a
 * value and returns the index just past it; the parsed value lands in `out`.
 *
 * `end` is the end of the body: a value ends at `,`, space or a line break (and at `]` inside an
 * array); only quoted strings may span lines. Reasons in
 * thrown `LineError`s are the reference parser's words, so error messages stay comparable.
 */
import { Kind, type Scalar } from '../../shared/point.js'
import { codes } from './codes.js'
import { scanNumber } from './numbers.js'
import { scanString } from './strings.js'
import { isDigit, LineError, tokenEnd, type ValueOut } from './token.js'

const SPACE = 32
const QUOTE = 34
const COMMA = 44
const DASH = 45
const DOT = 46
const CLOSE = 93
const NL = 10
const CR = 13

const BOOLS: Record<string, boolean> = {
  t: true,
  T: true,
  true: true,
  True: true,
  TRUE: true,
  f: false,
  F: false,
  false: false,
  False: false,
  FALSE: false,
}

export function scanBool(
  s: string,
  i: number,
  end: number,
  inArray: boolean,
  out: ValueOut,
): number {
  const e = tokenEnd(s, i, end, inArray)
  const v = BOOLS[s.slice(i, e)]
  if (v === undefined) throw new LineError('invalid boolean')
  out.kind = Kind.BOOL
  out.value = v
  return e
}

/** Scans one scalar value starting at `i`. */
export function scanScalar(
  s: string,
  i: number,
  end: number,
  inArray: boolean,
  out: ValueOut,
): number {
  const cc = codes
  const c = cc[i]
  if (c === QUOTE) return scanString(s, i, end, inArray, out)
  if (isDigit(c) || c === DASH || c === DOT || c === 78 || c === 110) {
    return scanNumber(s, i, end, inArray, out)
  }
  return scanBool(s, i, end, inArray, out)
}

/** `[v1,v2,...]`: elements of one basic type, no spaces. `i` is at `[`. */
export function scanArray(s: string, i: number, end: number, out: ValueOut): number {
  const cc = codes
  i++
  const items: Scalar[] = []
  let kind: Kind = Kind.NIL
  const el: ValueOut = { kind: Kind.NIL, value: null }
  while (i < end && cc[i] !== CLOSE) {
    const c = cc[i]
    if (c === SPACE) throw new LineError('invalid array: spaces are not allowed')
    if (c === NL || c === CR) throw new LineError('invalid array: missing ]')
    if (c === 91 /* [ */) throw new LineError('invalid array: nested arrays are not allowed')
    i = scanScalar(s, i, end, true, el)
    if (kind !== Kind.NIL && el.kind !== kind)
      throw new LineError('invalid array: mixed element types')
    kind = el.kind
    items.push(el.value as Scalar)
    if (i < end && cc[i] === COMMA) i++
    else if (i < end && cc[i] === SPACE)
      throw new LineError('invalid array: spaces are not allowed')
    else if (i < end && cc[i] !== CLOSE) throw new LineError('invalid array: missing ]')
  }
  if (i >= end) throw new LineError('invalid array: missing ]')
  out.kind = Kind.ARRAY
  out.value = items.length === 0 ? null : { kind, items }
  return i + 1
}
