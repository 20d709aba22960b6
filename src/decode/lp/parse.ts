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
import type { Point } from '../../shared/point.js'
import { lineEnd } from './scan.js'
import { clearCodes, codes, setCodes } from './codes.js'
import { cursor, parseLine } from './line.js'
import { LineError } from './token.js'

const TAB = 9
const NL = 10
const CR = 13
const SPACE = 32
const HASH = 35

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
