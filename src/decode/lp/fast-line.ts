/**
 * The table one scanned line of line protocol lands in (`fast-scan.ts`, `fast-values.ts`), and
 * the rules of the category the scan honours. Reused from line to line: no allocation per point.
 *
 * Escapes: a name range (measurement, key, tag value) the scan accepts holds a backslash only
 * as the first byte of an escape pair (`\,` `\=` `\ `), and a kept string only as `\"` or
 * `\\`; so the unescaped bytes are the range without the first byte of each pair, and the
 * range's count of pairs is all a copy needs.
 */
export const BAIL = -1

/** Field value kinds of the table; the same numbers as `Kind`. */
export const V_INT = 1
export const V_UINT = 2
export const V_FLOAT = 3
export const V_BOOL = 4
export const V_STRING = 6
/** A string field of a category that drops strings: not written, counted as a correction. */
export const V_DROPPED = 7

export const MAX_KEYS = 64

/** One scanned line. Ranges are [start, end) byte offsets into the body. */
export class Line {
  nameEnd = 0
  /** Escape pairs in the measurement. */
  nameEsc = 0
  tags = 0
  fields = 0
  /** Per key (tags first, then fields): start, end. Values: start, end for tags and strings. */
  readonly keys = new Int32Array(MAX_KEYS * 2)
  readonly vals = new Int32Array(MAX_KEYS * 2)
  readonly hashes = new Int32Array(MAX_KEYS)
  readonly kinds = new Uint8Array(MAX_KEYS)
  readonly nums = new Float64Array(MAX_KEYS)
  /** Escape pairs per key, and per tag value or kept string value. */
  readonly kesc = new Int32Array(MAX_KEYS)
  readonly vesc = new Int32Array(MAX_KEYS)
  /** 1 where the tag or field is left out of the output (dropped string, disabled key). */
  readonly skip = new Uint8Array(MAX_KEYS)
  /** Timestamp digits [timeStart, timeEnd); equal when absent. */
  timeStart = 0
  timeEnd = 0
}

/** Options of the category that the fast path honours. */
export interface ScanRules {
  /** False (metric): string fields are scanned to their end and dropped (`V_DROPPED`). */
  stringsKept: boolean
  /** `.` in keys would be renamed: any dot sends the body to the general path. */
  dotsAllowed: boolean
}
