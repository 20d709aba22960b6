/**
 * Line protocol quoted strings, and `"<base64>"b` bytes. Only a quoted string may span lines;
 * escapes are undone only when the string holds one.
 */
import { Kind } from '../../shared/point.js'
import { codes } from './codes.js'
import { unescapeString } from './scan.js'
import { LineError, type ValueOut } from './token.js'

const SPACE = 32
const QUOTE = 34
const COMMA = 44
const CLOSE = 93
const BACKSLASH = 92
const NL = 10
const CR = 13

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
