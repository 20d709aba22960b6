/**
 * Which byte ranges of a request the trace transcoder may copy as they are. The general path
 * decodes strings as UTF-8, and `checkPoint` corrects tag values with a newline, a trailing
 * backslash or more than 1024 bytes; the message is JSON text. A range is taken only where
 * copying its bytes gives exactly the general path's bytes: ASCII (so no invalid UTF-8 to
 * replace), for tag values with nothing to correct, for the message nothing JSON escapes. Any
 * other range declines the request (`DECLINE`), which the general path then maps.
 */
import { LIMITS } from '../check/options.js'
import { DECLINE } from './pb-span-wire.js'

const NEWLINE = 10
const QUOTE = 34
const BACKSLASH = 92
const MAX_TAG_VALUE = LIMITS.maxTagValueBytes

export function asciiText(b: Uint8Array, a: number, e: number): void {
  for (let i = a; i < e; i++) if (b[i] > 0x7f) throw DECLINE
}

/** A tag value `checkPoint` leaves as it is. */
export function tagText(b: Uint8Array, a: number, e: number): void {
  if (e - a > MAX_TAG_VALUE || (e > a && b[e - 1] === BACKSLASH)) throw DECLINE
  for (let i = a; i < e; i++) if (b[i] > 0x7f || b[i] === NEWLINE) throw DECLINE
}

/** Text JSON.stringify writes as it is between its quotes. */
export function jsonText(b: Uint8Array, a: number, e: number): void {
  for (let i = a; i < e; i++) {
    const c = b[i]
    if (c < 0x20 || c > 0x7f || c === QUOTE || c === BACKSLASH) throw DECLINE
  }
}

/** `tagText` for a JS string (the request's address, the agent's fingerprint). */
export function tagString(s: string): boolean {
  if (s.length > MAX_TAG_VALUE || s.endsWith('\\')) return false
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c > 0x7f || c === NEWLINE) return false
  }
  return true
}
