/** Token navigation shared by the DQL parsers: lookahead, keywords, expectations, errors. */
import { queryError, type Token } from './lexer.js'

export class Cursor {
  i = 0
  constructor(readonly t: Token[]) {}

  peek(): Token {
    return this.t[this.i]
  }
  next(): Token {
    return this.t[this.i++]
  }
  isKw(word: string, at = 0): boolean {
    const tok = this.t[this.i + at]
    return tok.type === 'ident' && tok.text.toUpperCase() === word
  }
  isPunct(p: string): boolean {
    const tok = this.peek()
    return tok.type === 'punct' && tok.text === p
  }
  fail(expected: string): never {
    const tok = this.peek()
    throw queryError(
      tok.pos,
      `expected ${expected}, got ${tok.type === 'eof' ? 'end of query' : JSON.stringify(tok.text)}`,
    )
  }
  expect(p: string): Token {
    if (!this.isPunct(p)) this.fail(`"${p}"`)
    return this.next()
  }
  kw(word: string): boolean {
    if (!this.isKw(word)) return false
    this.i++
    return true
  }
  name(what = 'a name'): string {
    const tok = this.peek()
    if (tok.type !== 'ident' && tok.type !== 'quoted') this.fail(what)
    return this.next().text
  }
  integer(what: string): number {
    const tok = this.peek()
    if (tok.type !== 'number' || !Number.isInteger(tok.value) || tok.value! < 0)
      this.fail(`a non-negative integer after ${what}`)
    return this.next().value!
  }

  /** One or more items separated by commas. */
  commaList<T>(item: () => T): T[] {
    const out = [item()]
    while (this.isPunct(',')) {
      this.next()
      out.push(item())
    }
    return out
  }
}
