/**
 * DQL tokens. Keywords are case-insensitive and recognised by the parser; names are
 * case-sensitive and may be quoted with backticks. `#` starts a comment to the end of the line.
 * A number directly followed by a unit (`15m`, `2d`, `100ms`) is one duration token.
 */
import { FerryError } from '../../errors.js'
import { readQuoted } from '../../shared/quoted.js'

export type TokenType = 'ident' | 'quoted' | 'string' | 'number' | 'duration' | 'punct' | 'eof'

export interface Token {
  type: TokenType
  text: string
  pos: number
  /** The number for number tokens; milliseconds for durations. */
  value?: number
}

const PUNCT = [
  '::',
  '!=',
  '<>',
  '<=',
  '>=',
  '&&',
  '||',
  ':',
  '(',
  ')',
  '{',
  '}',
  '[',
  ']',
  ',',
  '=',
  '<',
  '>',
  '*',
  ';',
  '+',
  '-',
  '/',
  '%',
  '.',
]

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
  y: 365 * 86_400_000,
}

export function queryError(pos: number, message: string): FerryError {
  return new FerryError('queryInvalid', `DQL parse error at position ${pos}: ${message}`)
}

const isIdentStart = (c: string) => /[A-Za-z_\u0080-\uffff]/.test(c)
const isIdent = (c: string) => /[A-Za-z0-9_\-.\u0080-\uffff]/.test(c)

function quoted(src: string, start: number, quote: string): [string, number] {
  const r = readQuoted(src, start, true)
  if (!r) throw queryError(start, `unterminated ${quote === '`' ? 'name' : 'string'}`)
  return r
}

function readNumber(src: string, i: number): Token {
  const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?([a-z]+)?/.exec(src.slice(i))!
  const [text, , , unit] = m
  if (unit === undefined) return { type: 'number', text, pos: i, value: Number(text) }
  const per = UNIT_MS[unit]
  if (per === undefined) throw queryError(i, `unknown time unit ${JSON.stringify(unit)} in ${text}`)
  return { type: 'duration', text, pos: i, value: Number(text.slice(0, -unit.length)) * per }
}

export function tokenize(src: string): Token[] {
  const out: Token[] = []
  let i = 0
  while (i < src.length) {
    const c = src[i]
    if (/\s/.test(c)) i++
    else if (c === '#') while (i < src.length && src[i] !== '\n') i++
    else if (c === "'" || c === '"' || c === '`') {
      const [text, end] = quoted(src, i, c)
      out.push({ type: c === '`' ? 'quoted' : 'string', text, pos: i })
      i = end
    } else if (/\d/.test(c) || (c === '-' && /\d/.test(src[i + 1] ?? '') && numberAllowed(out))) {
      const t = readNumber(src, i)
      out.push(t)
      i += t.text.length
    } else if (isIdentStart(c)) {
      let j = i + 1
      while (j < src.length && isIdent(src[j])) j++
      out.push({ type: 'ident', text: src.slice(i, j), pos: i })
      i = j
    } else {
      const p = PUNCT.find((x) => src.startsWith(x, i))
      if (!p) throw queryError(i, `unexpected character ${JSON.stringify(c)}`)
      out.push({ type: 'punct', text: p, pos: i })
      i += p.length
    }
  }
  out.push({ type: 'eof', text: '', pos: src.length })
  return out
}

/** A minus sign starts a number only where a value may begin (after an operator or `(`, `[`). */
function numberAllowed(out: Token[]): boolean {
  const prev = out[out.length - 1]
  return !prev || (prev.type === 'punct' && prev.text !== ')' && prev.text !== ']')
}
