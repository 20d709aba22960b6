/**
 * Recursive-descent Platypus parser, statements: calls, assignments and tuple assignments
 * (`a, b = x, y`: every value is computed before any target is written), if/elif/else, for-in
 * and C-style `for init; cond; step`, break, continue. Expressions are in parse-expr.ts.
 */
import type { At, Expr, Stmt } from './ast.js'
import { lex, PlSyntaxError, type Tok } from './lexer.js'
import { ExprParser } from './parse-expr.js'

class Parser extends ExprParser {
  program(): Stmt[] {
    const out = this.block('eof')
    return out
  }

  protected block(end: 'eof' | '}'): Stmt[] {
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

  protected braces(): Stmt[] {
    this.skipNewlines()
    this.expectOp('{')
    const body = this.block('}')
    this.expectOp('}')
    return body
  }

  protected statement(): Stmt {
    const at = this.at()
    if (this.isWord('if')) return this.ifStmt()
    if (this.isWord('for')) return this.forStmt()
    if (this.isWord('break') || this.isWord('continue')) {
      const kind = this.tok.text as 'break' | 'continue'
      this.i++
      return { t: 'jump', kind, ...at }
    }
    return this.simple()
  }

  /** `for x in e { }`, or C-style `for init; cond; step { }` (each part optional). */
  protected forStmt(): Stmt {
    const at = this.at()
    this.i++
    const next = this.toks[this.i + 1]
    if (this.tok.kind === 'id' && next?.kind === 'id' && next.text === 'in') {
      const name = this.tok.text
      this.i += 2
      const iter = this.expr()
      return { t: 'for', name, iter, body: this.braces(), ...at }
    }
    const init = this.isOp(';') ? null : this.single()
    this.expectOp(';')
    const cond = this.isOp(';') ? null : this.expr()
    this.expectOp(';')
    const step = this.isOp('{') ? null : this.single()
    return { t: 'loop', init, cond, step, body: this.braces(), ...at }
  }

  protected single(): Stmt {
    const s = this.simple()
    if (s.t === 'multi') this.fail('a tuple assignment in a for header')
    return s
  }

  /** An expression, an assignment, or a tuple assignment `a, b = x, y`. */
  protected simple(): Stmt {
    const at = this.at()
    const e = this.expr()
    if (this.isOp(',')) return this.multi(e, at)
    for (const op of ['=', '+=', '-=', '*=', '/=']) {
      if (this.isOp(op)) {
        this.target(e)
        this.i++
        this.skipNewlines()
        return { t: 'assign', target: e, op, value: this.expr(), ...at }
      }
    }
    return { t: 'expr', expr: e, ...at }
  }

  protected target(e: Expr): void {
    if (e.t !== 'id' && e.t !== 'index' && e.t !== 'attr')
      this.fail('cannot assign to this expression')
  }

  protected multi(first: Expr, at: At): Stmt {
    const targets = [first]
    while (this.isOp(',')) {
      this.i++
      targets.push(this.expr())
    }
    targets.forEach((t) => this.target(t))
    this.expectOp('=')
    this.skipNewlines()
    const values = [this.expr()]
    while (this.isOp(',')) {
      this.i++
      this.skipNewlines()
      values.push(this.expr())
    }
    if (values.length !== targets.length)
      this.fail('the number of left and right operands is not equal')
    return { t: 'multi', targets, values, ...at }
  }

  protected ifStmt(): Stmt {
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
}

export function parsePpl(src: string): Stmt[] {
  return new Parser(lex(src)).program()
}

export { PlSyntaxError }
