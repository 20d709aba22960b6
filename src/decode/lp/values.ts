/**
 * Field value scanners for line protocol. Each takes the cursor at the first character of a
 * value and returns the index just past it; the parsed value lands in `out`.
 *
 * `end` is the end of the body: a value ends at `,`, space or a line break (and at `]` inside an
 * array); only quoted strings may span lines. Reasons in
 * thrown `LineError`s are the reference parser's words, so error messages stay comparable.
 */
import { Kind, type Scalar, type Value } from '../../shared/point.js'
import { codes } from './codes.js'
import { unescapeString } from './scan.js'

export class LineError extends Error {
  constructor(readonly reason: string) {
    super(reason)
  }
}

export interface ValueOut {
  kind: Kind
  value: Value
}

const SPACE = 32
const QUOTE = 34
const COMMA = 44
const DASH = 45
const DOT = 46
const ZERO = 48
const NINE = 57
const CLOSE = 93
const BACKSLASH = 92

const INT64_MAX = 9223372036854775807n
const INT64_MIN = -9223372036854775808n
const UINT64_MAX = 18446744073709551615n

const NL = 10
const CR = 13

/** A value token ends at `,`, space, a line break, or `]` inside an array. */
function tokenEnd(s: string, i: number, end: number, inArray: boolean): number {
  const cc = codes
  while (i < end) {
    const c = cc[i]
    if (c === COMMA || c === SPACE || c === NL || c === CR || (inArray && c === CLOSE)) break
    i++
  }
  return i
}

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE
}

/** Digits-only check of s[a, b), allowing one leading '-' when `signed`. */
function allDigits(s: string, a: number, b: number, signed: boolean): boolean {
  const cc = codes
  if (signed && a < b && cc[a] === DASH) a++
  if (a >= b) return false
  for (let i = a; i < b; i++) if (!isDigit(cc[i])) return false
  return true
}

function integer(text: string, signed: boolean): number | bigint {
  if (text.length <= 15) return Number(text)
  const big = BigInt(text)
  if (signed ? big > INT64_MAX || big < INT64_MIN : big > UINT64_MAX) {
    const [what, fn] = signed ? ['integer', 'ParseInt'] : ['unsigned', 'ParseUint']
    throw new LineError(
      `unable to parse ${what} ${text}: strconv.${fn}: parsing "${text}": value out of range`,
    )
  }
  return big >= -9007199254740991n && big <= 9007199254740991n ? Number(big) : big
}

/** A float in the syntax `-?(digits[.digits]|.digits)([eE][+-]?digits)?`. */
function isFloatSyntax(s: string, a: number, b: number): boolean {
  const cc = codes
  let i = a
  if (cc[i] === DASH) i++
  const mantissa = i
  let digits = 0
  while (i < b && isDigit(cc[i])) {
    i++
    digits++
  }
  if (i < b && cc[i] === DOT) {
    i++
    while (i < b && isDigit(cc[i])) {
      i++
      digits++
    }
  }
  if (digits === 0 || i === mantissa) return false
  if (i < b && (cc[i] | 32) === 101) {
    i++
    if (i < b && (cc[i] === 43 || cc[i] === DASH)) i++
    const expStart = i
    while (i < b && isDigit(cc[i])) i++
    if (i === expStart) return false
  }
  return i === b
}

export function scanNumber(
  s: string,
  i: number,
  end: number,
  inArray: boolean,
  out: ValueOut,
): number {
  const cc = codes
  const e = tokenEnd(s, i, end, inArray)
  const last = cc[e - 1]
  if (last === 105 /* i */ && e - 1 > i) {
    if (!allDigits(s, i, e - 1, true)) throw new LineError('invalid number')
    out.kind = Kind.INT
    out.value = integer(s.slice(i, e - 1), true)
  } else if (last === 117 /* u */ && e - 1 > i) {
    if (!allDigits(s, i, e - 1, false)) throw new LineError('invalid number')
    out.kind = Kind.UINT
    out.value = integer(s.slice(i, e - 1), false)
  } else {
    if (!isFloatSyntax(s, i, e)) throw new LineError('invalid number')
    const v = Number(s.slice(i, e))
    if (!Number.isFinite(v)) throw new LineError('invalid float')
    out.kind = Kind.FLOAT
    out.value = v
  }
  return e
}

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

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/** A quoted string, or `"<base64>"b` bytes. `i` is at the opening quote. */
export function scanString(
  s: string,
  i: number,
  end: number,
  inArray: boolean,
  out: ValueOut,
): number {
  const cc = codes
  let j = i + 1
  let escaped = false
  while (j < end) {
    const c = cc[j]
    if (c === BACKSLASH && j + 1 < end) {
      escaped = true
      j += 2
      continue
    }
    if (c === QUOTE) break
    j++
  }
  if (j >= end) throw new LineError('unbalanced quotes')
  const raw = s.slice(i + 1, j)
  let next = j + 1
  if (next < end && cc[next] === 98 /* b */) {
    if (!BASE64.test(raw)) throw new LineError('invalid base64 in binary field value')
    out.kind = Kind.BYTES
    out.value = new Uint8Array(Buffer.from(raw, 'base64'))
    next++
  } else {
    out.kind = Kind.STRING
    out.value = escaped ? unescapeString(raw) : raw
  }
  if (next < end) {
    const c = cc[next]
    if (c === QUOTE) throw new LineError('unbalanced quotes')
    if (c !== COMMA && c !== SPACE && c !== NL && c !== CR && !(inArray && c === CLOSE)) {
      throw new LineError(`invalid string, got tail char \`${s[next]}'`)
    }
  }
  return next
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
