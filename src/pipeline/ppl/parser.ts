/**
 * Recursive-descent Platypus parser: statements (calls, assignments, if/elif/else,
 * for-in, break, continue) and expressions with the usual precedence
 * (|| < && < comparison < + - < * / % < unary < postfix).
 */
import type { At, Expr, Stmt } from './ast.js'
import { lex, PlSyntaxError, type Tok } from './lexer.js'

const LEVELS = [['||'], ['&&'], ['==', '!=', '<', '<=', '>', '>='], ['+', '-'], ['*', '/', '%']]

class Parser {
  private i = 0
  constructor(private readonly toks: Tok[]) {}

  private get tok(): Tok {
    return this.toks[this.i]
  }
  private at(t: Tok = this.tok): At {
    return { pos: t.pos, ln: t.ln, col: t.col }
  }
  private fail(msg: string, t: Tok = this.tok): never {
    throw new PlSyntaxError(msg, t.pos, t.ln, t.col)
  }
  private isOp(text: string): boolean {
    return this.tok.kind === 'op' && this.tok.text === text
  }
  private isWord(text: string): boolean {
    return this.tok.kind === 'id' && this.tok.text === text
  }
  private expectOp(text: string): void {
    if (!this.isOp(text)) this.fail(`expected "${text}", found ${this.describe()}`)
    this.i++
  }
  private describe(): string {
    return this.tok.kind === 'eof' ? 'end of script' : JSON.stringify(this.tok.text)
  }
  private skipEnds(): void {
    while (this.tok.kind === 'nl' || this.isOp(';')) this.i++
  }

  program(): Stmt[] {
    const out = this.block('eof')
    return out
  }

  private block(end: 'eof' | '}'): Stmt[] {
    const out: Stmt[] = []
    this.skipEnds()
    while (!(end === 'eof' ? this.tok.kind === 'eof' : this.isOp('}'))) {
      if ((this.tok as Tok).kind === 'eof') this.fail('missing "}"')
      out.push(this.statement())
      if (!(this.tok.kind === 'nl' || this.isOp(';') || this.tok.kind === 'eof' || this.isOp('}')))
        this.fail(`unexpected ${this.describe()} after a statement`)
      this.skipEnds()
    }
    return out
  }

  private braces(): Stmt[] {
    this.skipNewlines()
    this.expectOp('{')
    const body = this.block('}')
    this.expectOp('}')
    return body
  }
  private skipNewlines(): void {
    while (this.tok.kind === 'nl') this.i++
  }

  private statement(): Stmt {
    const at = this.at()
    if (this.isWord('if')) return this.ifStmt()
    if (this.isWord('for')) {
      this.i++
      if (this.tok.kind !== 'id') this.fail('expected a loop variable')
      const name = this.tok.text
      this.i++
      if (!this.isWord('in')) this.fail('expected "in"')
      this.i++
      const iter = this.expr()
      return { t: 'for', name, iter, body: this.braces(), ...at }
    }
    if (this.isWord('break') || this.isWord('continue')) {
      const kind = this.tok.text as 'break' | 'continue'
      this.i++
      return { t: 'jump', kind, ...at }
    }
    const e = this.expr()
    for (const op of ['=', '+=', '-=', '*=', '/=']) {
      if (this.isOp(op)) {
        if (e.t !== 'id' && e.t !== 'index' && e.t !== 'attr')
          this.fail('cannot assign to this expression')
        this.i++
        return { t: 'assign', target: e, op, value: this.expr(), ...at }
      }
    }
    return { t: 'expr', expr: e, ...at }
  }

  private ifStmt(): Stmt {
    const at = this.at()
    const branches: [Expr, Stmt[]][] = []
    let otherwise: Stmt[] | null = null
    this.i++
    branches.push([this.expr(), this.braces()])
    for (;;) {
      const save = this.i
      this.skipNewlines()
      if (this.isWord('elif')) {
        this.i++
        branches.push([this.expr(), this.braces()])
      } else if (this.isWord('else')) {
        this.i++
        otherwise = this.braces()
        break
      } else {
        this.i = save
        break
      }
    }
    return { t: 'if', branches, otherwise, ...at }
  }

  expr(level = 0): Expr {
    if (level === LEVELS.length) return this.unary()
    let left = this.expr(level + 1)
    while (this.tok.kind === 'op' && LEVELS[level].includes(this.tok.text)) {
      const at = this.at()
      const op = this.tok.text
      this.i++
      this.skipNewlines()
      left = { t: 'binary', op, left, right: this.expr(level + 1), ...at }
    }
    return left
  }

  private unary(): Expr {
    if (this.isOp('!') || this.isOp('-')) {
      const at = this.at()
      const op = this.tok.text
      this.i++
      return { t: 'unary', op, arg: this.unary(), ...at }
    }
    return this.postfix(this.primary())
  }

  private postfix(e: Expr): Expr {
    for (;;) {
      const at = this.at()
      if (this.isOp('.')) {
        this.i++
        if (this.tok.kind !== 'id') this.fail('expected a name after "."')
        e = { t: 'attr', obj: e, name: this.tok.text, ...at }
        this.i++
      } else if (this.isOp('[')) {
        this.i++
        const index = this.expr()
        this.expectOp(']')
        e = { t: 'index', obj: e, index, ...at }
      } else return e
    }
  }

  private list<T>(close: string, item: () => T): T[] {
    const out: T[] = []
    this.skipNewlines()
    while (!this.isOp(close)) {
      out.push(item())
      this.skipNewlines()
      if (!this.isOp(',')) break
      this.i++
      this.skipNewlines()
    }
    this.expectOp(close)
    return out
  }

  private primary(): Expr {
    const t = this.tok
    const at = this.at()
    if (t.kind === 'num' || t.kind === 'str') {
      this.i++
      return { t: 'lit', value: t.value!, ...at }
    }
    if (t.kind === 'id') {
      this.i++
      if (t.text === 'true' || t.text === 'false')
        return { t: 'lit', value: t.text === 'true', ...at }
      if (t.text === 'nil' || t.text === 'null') return { t: 'lit', value: null, ...at }
      if (this.isOp('(')) return this.call(t.text, at)
      return { t: 'id', name: t.text, ...at }
    }
    if (this.isOp('(')) {
      this.i++
      const e = this.expr()
      this.expectOp(')')
      return e
    }
    if (this.isOp('[')) {
      this.i++
      return { t: 'list', items: this.list(']', () => this.expr()), ...at }
    }
    if (this.isOp('{')) {
      this.i++
      const entries = this.list('}', (): [Expr, Expr] => {
        const k = this.expr()
        this.expectOp(':')
        return [k, this.expr()]
      })
      return { t: 'map', entries, ...at }
    }
    return this.fail(`unexpected ${this.describe()}`)
  }

  private call(name: string, at: At): Expr {
    this.i++
    const args: Expr[] = []
    const named: [string, Expr][] = []
    this.list(')', () => {
      const next = this.toks[this.i + 1]
      if (this.tok.kind === 'id' && next?.kind === 'op' && next.text === '=') {
        const key = this.tok.text
        this.i += 2
        named.push([key, this.expr()])
      } else {
        if (named.length) this.fail('a positional argument after a named one')
        args.push(this.expr())
      }
    })
    return { t: 'call', name, args, named, ...at }
  }
}

export function parsePpl(src: string): Stmt[] {
  return new Parser(lex(src)).program()
}

export { PlSyntaxError }
