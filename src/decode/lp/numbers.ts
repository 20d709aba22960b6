/**
 * Line protocol numbers: `1i` (int64), `1u` (uint64), and floats in the reference's syntax.
 * Integers beyond 2^53 stay bigints; a value outside the 64-bit range is a `LineError` with the
 * reference's strconv message.
 */
import { Kind } from '../../shared/point.js'
import { codes } from './codes.js'
import { isDigit, LineError, tokenEnd, type ValueOut } from './token.js'

const DASH = 45
const DOT = 46

const INT64_MAX = 9223372036854775807n
const INT64_MIN = -9223372036854775808n
const UINT64_MAX = 18446744073709551615n

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
