/**
 * Platypus (the reference agent's pipeline language) tokens: identifiers (also `backquoted`),
 * numbers, strings ('', "", and triple-quoted multi-line), operators, newlines (statement
 * ends) and `#` comments. Every token keeps its position for PlError `pos_chain`.
 */
export type TokKind = 'id' | 'num' | 'str' | 'op' | 'nl' | 'eof'

export interface Tok {
  kind: TokKind
  text: string
  /** Decoded value for strings and numbers. */
  value?: string | number | bigint
  pos: number
  ln: number
  col: number
}

export class PlSyntaxError extends Error {
  constructor(
    message: string,
    readonly pos: number,
    readonly ln: number,
    readonly col: number,
  ) {
    super(message)
  }
}

const OPS = [
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '+=',
  '-=',
  '*=',
  '/=',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  ':',
  ';',
  '.',
  '=',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '!',
]
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

export function lex(src: string): Tok[] {
  const out: Tok[] = []
  let i = 0
  let ln = 1
  let lineStart = 0
  const tok = (kind: TokKind, text: string, start: number, value?: string | number | bigint) =>
    out.push({ kind, text, value, pos: start, ln, col: start - lineStart + 1 })
  const fail = (msg: string, at: number): never => {
    throw new PlSyntaxError(msg, at, ln, at - lineStart + 1)
  }
  while (i < src.length) {
    const c = src[i]
    const start = i
    if (c === '\n') {
      tok('nl', '\n', i)
      i++
      ln++
      lineStart = i
    } else if (c === ' ' || c === '\t' || c === '\r') i++
    else if (c === '#') while (i < src.length && src[i] !== '\n') i++
    else if (c === '\\' && src[i + 1] === '\n') i++
    else if (/[A-Za-z_]/.test(c)) {
      while (i < src.length && /[A-Za-z0-9_]/.test(src[i])) i++
      tok('id', src.slice(start, i), start)
    } else if (c === '`') {
      const end = src.indexOf('`', i + 1)
      if (end < 0) fail('unterminated `identifier`', start)
      tok('id', src.slice(i + 1, end), start)
      i = end + 1
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /^(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/.exec(src.slice(i))!
      i += m[0].length
      tok('num', m[0], start, numberValue(m[0]))
    } else if (c === '"' || c === "'") {
      const triple = src.startsWith(c.repeat(3), i)
      i = readString(
        src,
        i,
        triple,
        c,
        (v, end, lines) => {
          tok('str', src.slice(start, end), start, v)
          if (lines) {
            ln += lines.count
            lineStart = lines.lastStart
          }
        },
        (msg) => fail(msg, start),
      )
    } else {
      const op = OPS.find((o) => src.startsWith(o, i))
      if (!op) fail(`unexpected character ${JSON.stringify(c)}`, start)
      tok('op', op!, start)
      i += op!.length
    }
  }
  tok('eof', '', i)
  return out
}

function readString(
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
function numberValue(text: string): number | bigint {
  const n = Number(text)
  return Number.isInteger(n) && !Number.isSafeInteger(n) && /^(0[xX][0-9a-fA-F]+|\d+)$/.test(text)
    ? BigInt(text)
    : n
}
