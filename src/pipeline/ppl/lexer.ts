/**
 * Platypus (the reference agent's pipeline language) tokens: identifiers (also `backquoted`),
 * numbers, strings ('', "", and triple-quoted multi-line), operators, newlines (statement
 * ends) and `#` comments. Every token keeps its position for PlError `pos_chain`.
 */
import { numberValue, readString } from './literals.js'

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
export function lex(src: string): Tok[] {
  return new Lexer(src).run()
}

/** One pass over a script: `i` the next character, `ln`/`lineStart` for positions. */
class Lexer {
  private readonly out: Tok[] = []
  private i = 0
  private ln = 1
  private lineStart = 0

  constructor(private readonly src: string) {}

  run(): Tok[] {
    const src = this.src
    while (this.i < src.length) {
      const c = src[this.i]
      if (c === '\n') this.newline()
      else if (c === ' ' || c === '\t' || c === '\r') this.i++
      else if (c === '#') while (this.i < src.length && src[this.i] !== '\n') this.i++
      else if (c === '\\' && src[this.i + 1] === '\n') this.i++
      else if (/[A-Za-z_]/.test(c)) this.word()
      else if (c === '`') this.quotedWord()
      else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[this.i + 1] ?? ''))) this.number()
      else if (c === '"' || c === "'") this.string(c)
      else this.op(c)
    }
    this.tok('eof', '', this.i)
    return this.out
  }

  private tok(kind: TokKind, text: string, start: number, value?: string | number | bigint) {
    this.out.push({ kind, text, value, pos: start, ln: this.ln, col: start - this.lineStart + 1 })
  }

  private fail(msg: string, at: number): never {
    throw new PlSyntaxError(msg, at, this.ln, at - this.lineStart + 1)
  }

  private newline() {
    this.tok('nl', '\n', this.i)
    this.i++
    this.ln++
    this.lineStart = this.i
  }

  private word() {
    const start = this.i
    while (this.i < this.src.length && /[A-Za-z0-9_]/.test(this.src[this.i])) this.i++
    this.tok('id', this.src.slice(start, this.i), start)
  }

  private quotedWord() {
    const start = this.i
    const end = this.src.indexOf('`', start + 1)
    if (end < 0) this.fail('unterminated `identifier`', start)
    this.tok('id', this.src.slice(start + 1, end), start)
    this.i = end + 1
  }

  private number() {
    const start = this.i
    const text = /^(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/.exec(
      this.src.slice(start),
    )![0]
    this.i += text.length
    this.tok('num', text, start, numberValue(text))
  }

  private string(q: string) {
    const { src } = this
    const start = this.i
    const triple = src.startsWith(q.repeat(3), start)
    const emit = (v: string, end: number, lines: { count: number; lastStart: number } | null) => {
      this.tok('str', src.slice(start, end), start, v)
      if (lines) {
        this.ln += lines.count
        this.lineStart = lines.lastStart
      }
    }
    this.i = readString(src, start, triple, q, emit, (msg) => this.fail(msg, start))
  }

  private op(c: string) {
    const start = this.i
    const op = OPS.find((o) => this.src.startsWith(o, start))
    if (!op) this.fail(`unexpected character ${JSON.stringify(c)}`, start)
    this.tok('op', op, start)
    this.i += op.length
  }
}
