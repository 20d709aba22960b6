/**
 * Tokens of the IO filter language (the reference agent's blacklist conditions, such as
 * `{ source = 'nginx' and status in ['debug', 'info'] }`).
 *
 * Invariants: every token carries the offset it starts at, so a parse error names a position;
 * keywords are case-insensitive, identifiers and strings are kept as written; a lexing problem
 * is a FilterSyntaxError, never a thrown string.
 */

import { readQuoted } from '../quoted.js'

export type TokenKind = 'ident' | 'string' | 'number' | 'punct' | 'op' | 'keyword' | 'eof'

export interface Token {
  kind: TokenKind
  /** The identifier or keyword (lower case), the unquoted string, the operator or punctuation. */
  text: string
  pos: number
}

export class FilterSyntaxError extends Error {
  constructor(
    message: string,
    readonly pos: number,
  ) {
    super(`${message} at offset ${pos}`)
  }
}

export const KEYWORDS = new Set([
  'and',
  'or',
  'in',
  'notin',
  'not_in',
  'match',
  'notmatch',
  'true',
  'false',
  'nil',
  'null',
  're',
])

const OPS = ['==', '!=', '<>', '<=', '>=', '&&', '||', '=', '<', '>']
const PUNCT = new Set(['{', '}', '(', ')', '[', ']', ',', ';'])

/** A quoted string; inside backticks a backslash is kept as written. */
function quoted(src: string, at: number): [string, number] {
  const r = readQuoted(src, at, src[at] !== '`')
  if (!r) throw new FilterSyntaxError('unterminated string', at)
  return r
}

function number(src: string, at: number): [string, number] {
  const m = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(src.slice(at))
  if (!m) throw new FilterSyntaxError('bad number', at)
  return [m[0], at + m[0].length]
}

export function lex(src: string): Token[] {
  const out: Token[] = []
  let i = 0
  while (i < src.length) {
    const c = src[i]
    if (/\s/.test(c)) i++
    else if (c === '#') while (i < src.length && src[i] !== '\n') i++
    else if (c === "'" || c === '"') {
      const [text, next] = quoted(src, i)
      out.push({ kind: 'string', text, pos: i })
      i = next
    } else if (c === '`') {
      const [text, next] = quoted(src, i)
      out.push({ kind: 'ident', text, pos: i })
      i = next
    } else if (/[\d.]/.test(c) || (/[-+]/.test(c) && /[\d.]/.test(src[i + 1] ?? ''))) {
      const [text, next] = number(src, i)
      out.push({ kind: 'number', text, pos: i })
      i = next
    } else if (/[A-Za-z_]/.test(c)) {
      const word = /^[A-Za-z_]\w*/.exec(src.slice(i))![0]
      const lower = word.toLowerCase()
      out.push(
        KEYWORDS.has(lower)
          ? { kind: 'keyword', text: lower, pos: i }
          : { kind: 'ident', text: word, pos: i },
      )
      i += word.length
    } else if (PUNCT.has(c)) out.push({ kind: 'punct', text: c, pos: i++ })
    else {
      const op = OPS.find((o) => src.startsWith(o, i))
      if (!op) throw new FilterSyntaxError(`unexpected ${JSON.stringify(c)}`, i)
      out.push({ kind: 'op', text: op, pos: i })
      i += op.length
    }
  }
  out.push({ kind: 'eof', text: '', pos: src.length })
  return out
}
