/**
 * Field value scanners of the byte-level transcoder: plain numbers, booleans and strings read
 * from bytes into the line table; anything else is `BAIL` (the general path reads it).
 *
 * Invariant: a value accepted here has exactly the kind and value the general parser gives it
 * (numbers of up to 15 digits are built exactly; longer floats use the platform's parse;
 * integers are taken up to 2^53 - 1, where the general parser too gives a number, which covers
 * 16-digit values such as a span's `start` in microseconds).
 */
import { LIMITS } from '../check/options.js'
import {
  BAIL,
  V_BOOL,
  V_DROPPED,
  V_FLOAT,
  V_INT,
  V_STRING,
  V_UINT,
  type Line,
  type ScanRules,
} from './fast-line.js'

const NL = 10
const CR = 13
const SPACE = 32
const QUOTE = 34
const COMMA = 44
const DASH = 45
const DOT = 46
const BACKSLASH = 92
const MAX_SAFE = Number.MAX_SAFE_INTEGER
const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

/** A number `-?digits[.digits]` or `-?.digits` with an optional `i`/`u` suffix. */
function scanNumber(b: Uint8Array, i: number, n: number, line: Line, k: number): number {
  const start = i
  const neg = b[i] === DASH
  if (neg) i++
  let m = 0
  let digits = 0
  let frac = -1
  for (; i < n; i++) {
    const c = b[i]
    if (c >= 48 && c <= 57) {
      m = m * 10 + (c - 48)
      digits++
    } else if (c === DOT && frac < 0) frac = digits
    else break
  }
  if (digits === 0) return BAIL
  const c = i < n ? b[i] : NL
  if (c === 105 || c === 117) {
    // Past 2^53 - 1 the sum above may have rounded, and the general parser gives a bigint.
    if (frac >= 0 || (c === 117 && neg) || digits > 16 || m > MAX_SAFE) return BAIL
    line.kinds[k] = c === 105 ? V_INT : V_UINT
    line.nums[k] = neg ? -m || 0 : m
    return i + 1
  }
  line.kinds[k] = V_FLOAT
  if (digits > 15) {
    // Past 15 digits the mantissa is not exact: the platform's correctly rounded parse.
    line.nums[k] = Number(ascii(b, start, i))
    return i
  }
  // Up to 15 digits the mantissa is exact; one division by an exact power of ten rounds once.
  const v = frac < 0 ? m : m / POW10[digits - frac]
  line.nums[k] = neg ? -v : v
  return i
}

/** A short ASCII range as a string (a number's text: a few dozen characters at most). */
function ascii(b: Uint8Array, a: number, e: number): string {
  let s = ''
  for (let i = a; i < e; i++) s += String.fromCharCode(b[i])
  return s
}

function scanBool(b: Uint8Array, i: number, n: number, line: Line, k: number): number {
  let e = i
  while (e < n && b[e] !== COMMA && b[e] !== SPACE && b[e] !== NL && b[e] !== CR) e++
  const len = e - i
  const c = b[i]
  let v: number
  if (len === 1) v = c === 116 || c === 84 ? 1 : c === 102 || c === 70 ? 0 : -1
  else if (len === 4 && (c === 116 || c === 84)) v = isWord(b, i, 'true') ? 1 : -1
  else if (len === 5 && (c === 102 || c === 70)) v = isWord(b, i, 'false') ? 0 : -1
  else v = -1
  if (v < 0) return BAIL
  line.kinds[k] = V_BOOL
  line.nums[k] = v
  return e
}

/** `true`/`True`/`TRUE` (and the same for false): all lower, all upper, or capitalised. */
function isWord(b: Uint8Array, i: number, w: string): boolean {
  let lower = true
  let upper = true
  for (let j = 1; j < w.length; j++) {
    const c = b[i + j]
    if (c !== w.charCodeAt(j)) lower = false
    if (c !== w.charCodeAt(j) - 32) upper = false
  }
  return lower || (upper && b[i] === w.charCodeAt(0) - 32)
}

/**
 * A quoted string to its closing quote. Kept: printable ASCII whose escapes are `\"` and `\\`
 * (counted in `vesc`, so the copy can drop their backslashes). Dropped (`kept` false): its bytes
 * are never written, so any escape pair of printable ASCII is skipped like the general parser
 * skips it (a backslash and the byte after it).
 */
function scanString(b: Uint8Array, i: number, n: number, line: Line, k: number, kept: boolean) {
  const s = i + 1
  let esc = 0
  for (i = s; i < n; i++) {
    let c = b[i]
    if (c === QUOTE) break
    if (c === BACKSLASH) {
      c = i + 1 < n ? b[++i] : 0
      if (kept ? c !== QUOTE && c !== BACKSLASH : c < SPACE || c > 126) return BAIL
      esc++
    } else if (c < SPACE || c > 126) return BAIL
  }
  if (i >= n || i - s > LIMITS.maxStringBytes) return BAIL
  if (i + 1 < n && b[i + 1] === 98) return BAIL // "..."b: bytes
  line.kinds[k] = kept ? V_STRING : V_DROPPED
  line.vals[2 * k] = s
  line.vals[2 * k + 1] = i
  line.vesc[k] = esc
  return i + 1
}

export function scanValue(
  b: Uint8Array,
  i: number,
  n: number,
  line: Line,
  k: number,
  r: ScanRules,
) {
  const c = b[i]
  if ((c >= 48 && c <= 57) || c === DASH || c === DOT) return scanNumber(b, i, n, line, k)
  if (c === QUOTE) return scanString(b, i, n, line, k, r.stringsKept)
  return scanBool(b, i, n, line, k)
}
