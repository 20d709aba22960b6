/**
 * The scanning half of the byte-level transcoder (`transcode.ts`): reads one line of line
 * protocol straight from the body's bytes into a reused table of byte ranges and values, with
 * no string and no object per point.
 *
 * Invariant: it accepts only lines the general parser reads the same way and the checks leave
 * untouched or only drop from (printable ASCII names, escaped only by `\,` `\=` `\ ` pairs, one
 * space between sections, no key that repeats, lengths within the limits, plain numbers and
 * booleans, strings whose escapes are `\"` and `\\`); on anything else it answers `BAIL`, and
 * the caller hands the whole body to the general path.
 */
import { LIMITS } from '../check/options.js'
import { BAIL, MAX_KEYS, type Line, type ScanRules } from './fast-line.js'
import { scanValue } from './fast-values.js'

const NL = 10
const CR = 13
const SPACE = 32
const QUOTE = 34
const COMMA = 44
const DOT = 46
const EQ = 61
const BACKSLASH = 92

/** Escape pairs in the last name `nameEnd` scanned. */
let esc = 0

/** Byte classes of a name: one table read per byte instead of a chain of comparisons. */
const PLAIN = 0
const END = 1 // `=` `,` space: the name ends
const ESCAPE = 2 // a backslash: must open `\,` `\=` or `\ `
const REFUSED = 3 // control, non-ASCII, `"`: BAIL
const DOT_BYTE = 4 // refused only where dots would be renamed
const CLASS = new Uint8Array(256).fill(REFUSED)
for (let c = 33; c <= 126; c++) CLASS[c] = PLAIN
CLASS[EQ] = CLASS[COMMA] = CLASS[SPACE] = END
CLASS[BACKSLASH] = ESCAPE
CLASS[QUOTE] = REFUSED
CLASS[DOT] = DOT_BYTE

/**
 * A key or tag value: printable ASCII but `, = "` and space, each of those three allowed as an
 * escape pair (`\,`); any other backslash is BAIL. Returns its end or BAIL; sets `esc`. A key
 * (`k` >= 0) also gets its hash in `line.hashes[k]`.
 */
function nameEnd(
  b: Uint8Array,
  i: number,
  n: number,
  line: Line,
  k: number,
  dots: boolean,
): number {
  let h = 0
  esc = 0
  const start = i
  for (; i < n; i++) {
    let c = b[i]
    const cls = CLASS[c]
    if (cls !== PLAIN) {
      if (cls === END) break
      if (cls === ESCAPE) {
        c = i + 1 < n ? b[i + 1] : 0
        if (CLASS[c] !== END) return BAIL
        esc++
        i++
      } else if (cls === REFUSED || !dots) return BAIL
    }
    h = (Math.imul(h, 31) + c) | 0
  }
  if (k >= 0) line.hashes[k] = h ^ (i - start)
  return i
}

/** A tag value or the measurement: `nameEnd` without a hash or a dot rule. */
function valueEnd(b: Uint8Array, i: number, n: number): number {
  esc = 0
  for (; i < n; i++) {
    const cls = CLASS[b[i]]
    if (cls === PLAIN || cls === DOT_BYTE) continue
    if (cls === END) break
    if (cls === REFUSED || i + 1 >= n || CLASS[b[i + 1]] !== END) return BAIL
    esc++
    i++
  }
  return i
}

function sameKey(b: Uint8Array, line: Line, x: number, y: number): boolean {
  const ks = line.keys
  const len = ks[2 * x + 1] - ks[2 * x]
  if (len !== ks[2 * y + 1] - ks[2 * y]) return false
  for (let i = 0, a = ks[2 * x], c = ks[2 * y]; i < len; i++)
    if (b[a + i] !== b[c + i]) return false
  return true
}

/**
 * Keys seen on the current line, by hash: an open-addressed table whose slots are valid only
 * when stamped with the line's number, so nothing is cleared between lines. At least twice
 * `MAX_KEYS` slots (a power of two, for the mask) keep probe chains short and always leave a
 * free slot, so a probe ends.
 */
const SLOTS = 2 ** Math.ceil(Math.log2(2 * MAX_KEYS))
const stamps = new Uint32Array(SLOTS)
const owners = new Uint8Array(SLOTS)
let stamp = 0

/** No two keys of the point (tags and fields together) may be equal: one probe per key. */
function keysUnique(b: Uint8Array, line: Line): boolean {
  const n = line.tags + line.fields
  const h = line.hashes
  if (++stamp === 0x100000000) {
    stamps.fill(0)
    stamp = 1
  }
  for (let x = 0; x < n; x++) {
    let slot = h[x] & (SLOTS - 1)
    while (stamps[slot] === stamp) {
      const y = owners[slot]
      if (h[x] === h[y] && sameKey(b, line, x, y)) return false
      slot = (slot + 1) & (SLOTS - 1)
    }
    stamps[slot] = stamp
    owners[slot] = x
  }
  return true
}

function scanTags(b: Uint8Array, i: number, n: number, line: Line, r: ScanRules): number {
  let k = 0
  while (i < n && b[i] === COMMA) {
    if (k >= MAX_KEYS / 2) return BAIL
    const ke = nameEnd(b, i + 1, n, line, k, r.dotsAllowed)
    if (ke <= i + 1 || ke - i - 1 > LIMITS.maxKeyBytes || b[ke] !== EQ) return BAIL
    line.kesc[k] = esc
    const ve = valueEnd(b, ke + 1, n)
    if (ve <= ke + 1 || ve - ke - 1 > LIMITS.maxTagValueBytes) return BAIL
    line.vesc[k] = esc
    line.keys[2 * k] = i + 1
    line.keys[2 * k + 1] = ke
    line.vals[2 * k] = ke + 1
    line.vals[2 * k + 1] = ve
    k++
    i = ve
  }
  line.tags = k
  return i
}

function scanFields(b: Uint8Array, i: number, n: number, line: Line, r: ScanRules): number {
  let k = line.tags
  for (;;) {
    if (k >= MAX_KEYS) return BAIL
    const ke = nameEnd(b, i, n, line, k, r.dotsAllowed)
    if (ke <= i || ke - i > LIMITS.maxKeyBytes || b[ke] !== EQ || ke + 1 >= n) return BAIL
    line.kesc[k] = esc
    line.keys[2 * k] = i
    line.keys[2 * k + 1] = ke
    i = scanValue(b, ke + 1, n, line, k, r)
    if (i < 0) return BAIL
    k++
    if (i >= n || b[i] !== COMMA) break
    i++
  }
  line.fields = k - line.tags
  return i
}

/**
 * Scans the line at `i` (its first byte is not blank) into `line`; returns the offset past its
 * line break, or BAIL.
 */
export function scanLine(b: Uint8Array, i: number, n: number, line: Line, r: ScanRules): number {
  if (b[i] === 35 /* # */) return BAIL
  const me = valueEnd(b, i, n)
  if (me <= i || me - i > LIMITS.maxMeasurementBytes || b[me] === EQ) return BAIL
  line.nameEnd = me
  line.nameEsc = esc
  i = scanTags(b, me, n, line, r)
  if (i < 0 || i >= n || b[i] !== SPACE) return BAIL
  i = scanFields(b, i + 1, n, line, r)
  if (i < 0 || !keysUnique(b, line)) return BAIL
  line.timeStart = line.timeEnd = i
  if (i < n && b[i] === SPACE) {
    const t = ++i
    while (i < n && b[i] >= 48 && b[i] <= 57) i++
    if (i === t || i - t > 19 || (b[t] === 48 && i - t > 1)) return BAIL
    line.timeStart = t
    line.timeEnd = i
  }
  if (i < n && b[i] === CR) i++
  if (i < n && b[i] !== NL) return BAIL
  return i + 1
}
