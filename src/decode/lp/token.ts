/**
 * What the line protocol value scanners share: the `LineError` a bad line throws (its reason is
 * the reference parser's words), the `ValueOut` slot a scanned value lands in, and the token
 * boundary: a value token ends at `,`, space, a line break, or `]` inside an array.
 */
import type { Kind, Value } from '../../shared/point.js'
import { codes } from './codes.js'

const SPACE = 32
const COMMA = 44
const ZERO = 48
const NINE = 57
const CLOSE = 93
const NL = 10
const CR = 13

export class LineError extends Error {
  constructor(readonly reason: string) {
    super(reason)
  }
}

export interface ValueOut {
  kind: Kind
  value: Value
}

/** A value token ends at `,`, space, a line break, or `]` inside an array. */
export function tokenEnd(s: string, i: number, end: number, inArray: boolean): number {
  const cc = codes
  while (i < end) {
    const c = cc[i]
    if (c === COMMA || c === SPACE || c === NL || c === CR || (inArray && c === CLOSE)) break
    i++
  }
  return i
}

export function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE
}
