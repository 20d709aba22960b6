/**
 * Platypus literals: strings (quoted, with escapes, or triple-quoted over lines) and numbers
 * (an integer past 2^53 kept exact), read for the lexer (lexer.ts).
 */

const ESC: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  '"': '"',
  "'": "'",
  '0': '\0',
  b: '\b',
  f: '\f',
  v: '\v',
  a: '\x07',
}

/**
 * Reads the string literal opening at `at` (quote `q`, tripled or not), hands its value and end
 * to `emit` (with the lines a triple-quoted one spans), and returns the index after it.
 */
export function readString(
  src: string,
  at: number,
  triple: boolean,
  q: string,
  emit: (v: string, end: number, lines: { count: number; lastStart: number } | null) => void,
  fail: (msg: string) => never,
): number {
  if (triple) {
    const end = src.indexOf(q.repeat(3), at + 3)
    if (end < 0) fail('unterminated string')
    const body = src.slice(at + 3, end)
    const count = body.split('\n').length - 1
    emit(body, end + 3, count ? { count, lastStart: at + 3 + body.lastIndexOf('\n') + 1 } : null)
    return end + 3
  }
  let v = ''
  let i = at + 1
  while (i < src.length && src[i] !== q) {
    if (src[i] === '\n') fail('newline in string')
    if (src[i] === '\\') {
      const e = src[i + 1]
      if (e === 'u' || e === 'x') {
        const len = e === 'u' ? 4 : 2
        v += String.fromCharCode(Number.parseInt(src.slice(i + 2, i + 2 + len), 16))
        i += 2 + len
        continue
      }
      v += ESC[e] ?? '\\' + e
      i += 2
    } else v += src[i++]
  }
  if (i >= src.length) fail('unterminated string')
  emit(v, i + 1, null)
  return i + 1
}

/** An integer literal past 2^53 stays exact (a BigInt in the sandbox), as the reference's int64. */
export function numberValue(text: string): number | bigint {
  const n = Number(text)
  return Number.isInteger(n) && !Number.isSafeInteger(n) && /^(0[xX][0-9a-fA-F]+|\d+)$/.test(text)
    ? BigInt(text)
    : n
}
