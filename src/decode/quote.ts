/**
 * Quotes bytes the way Go's `%q` does, for the `Origin data:` part of line protocol errors
 * (spec 7): printable UTF-8 stays as is, `\n \t \r " \\` are escaped, and every other byte
 * (controls, invalid UTF-8) is written as `\xNN`.
 */
const SHORT: Record<number, string> = {
  7: '\\a',
  8: '\\b',
  9: '\\t',
  10: '\\n',
  11: '\\v',
  12: '\\f',
  13: '\\r',
  34: '\\"',
  92: '\\\\',
}
const hex = (b: number) => '\\x' + b.toString(16).padStart(2, '0')
const td = new TextDecoder('utf-8', { fatal: true })

/** Length of the valid UTF-8 sequence starting at i, or 0. */
function seqLen(b: Uint8Array, i: number): number {
  const c = b[i]
  const n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0
  if (n === 0 || i + n > b.length) return 0
  try {
    td.decode(b.subarray(i, i + n))
    return n
  } catch {
    return 0
  }
}

export function goQuote(b: Uint8Array, max = 64 * 1024): string {
  let out = '"'
  const end = Math.min(b.length, max)
  let i = 0
  while (i < end) {
    const c = b[i]
    if (c < 0x80) {
      out += SHORT[c] ?? (c < 0x20 || c === 0x7f ? hex(c) : String.fromCharCode(c))
      i++
      continue
    }
    const n = seqLen(b, i)
    if (n === 0) {
      out += hex(c)
      i++
    } else {
      out += Buffer.from(b.subarray(i, i + n)).toString('utf8')
      i += n
    }
  }
  out += '"'
  if (b.length > max) out += ` (first ${max} of ${b.length} bytes)`
  return out
}
