/**
 * The where-clause grammar, shared by statements, the `conditions` option and HAVING (whose
 * left sides are select expressions, compared by their canonical text): comparisons joined by
 * AND, OR, `&&`, `||` or commas, parentheses and NOT, each bounded in depth and number.
 */
import type { Expr, Literal } from './ast.js'
import { Cursor } from './cursor.js'
import { queryError } from './lexer.js'
import { exprText, selExpr } from './select-expr.js'
import { wildcardRegex } from './wildcard.js'

const CMP = ['=', '!=', '<>', '<', '<=', '>', '>=']

/**
 * Limits on where-clauses, so that the recursion here and in the SQL compiler stays far from
 * the stack's end: parentheses and NOTs nested at most `MAX_NESTING` deep, and at most
 * `MAX_CONDITIONS` comparisons (a chain of ANDs is as deep a tree as nested parentheses).
 */
export const MAX_NESTING = 100
export const MAX_CONDITIONS = 1000

export class WhereParser extends Cursor {
  private depth = 0
  private conditions = 0
  protected havingMode = false

  having(): Expr {
    this.havingMode = true
    try {
      return this.orExpr()
    } finally {
      this.havingMode = false
    }
  }

  orExpr(): Expr {
    let left = this.andExpr()
    while (this.isKw('OR') || this.isPunct('||')) {
      this.next()
      left = { op: 'or', left, right: this.andExpr() }
    }
    return left
  }

  andExpr(): Expr {
    let left = this.unary()
    while (this.isKw('AND') || this.isPunct('&&') || this.isPunct(',')) {
      this.next()
      left = { op: 'and', left, right: this.unary() }
    }
    return left
  }

  unary(): Expr {
    const tok = this.peek()
    if (++this.depth > MAX_NESTING)
      throw queryError(tok.pos, `conditions nested deeper than ${MAX_NESTING} levels`)
    try {
      if (this.kw('NOT')) return { op: 'not', expr: this.unary() }
      if (this.isPunct('(')) {
        this.next()
        const e = this.orExpr()
        this.expect(')')
        return e
      }
      return this.comparison()
    } finally {
      this.depth--
    }
  }

  comparison(): Expr {
    if (++this.conditions > MAX_CONDITIONS)
      throw queryError(this.peek().pos, `more than ${MAX_CONDITIONS} conditions`)
    const column = this.havingMode ? exprText(selExpr(this)) : this.name('a field or tag name')
    if (this.kw('IS')) {
      const not = this.kw('NOT')
      if (!this.kw('NULL')) this.fail('NULL after IS')
      return { op: 'cmp', column, cmp: not ? '!=' : '=', value: null }
    }
    const negate = this.kw('NOT')
    if (this.kw('IN')) return { op: 'in', column, values: this.literalList(), negate }
    if (negate) this.fail('IN after NOT')
    const opTok = this.peek()
    if (opTok.type !== 'punct' || !CMP.includes(opTok.text)) this.fail('a comparison operator')
    this.next()
    const cmp = (opTok.text === '<>' ? '!=' : opTok.text) as '=' | '!=' | '<' | '<=' | '>' | '>='
    const fn = this.peek()
    if (fn.type === 'ident' && this.t[this.i + 1].text === '(') {
      if (cmp !== '=' && cmp !== '!=') throw queryError(opTok.pos, `${fn.text}() needs = or !=`)
      return this.filterCall(column, cmp === '!=')
    }
    return { op: 'cmp', column, cmp, value: this.literal() }
  }

  /** `re('..')`, `match('..')`, `wildcard('..')` and `exists()` after `=` or `!=`. */
  filterCall(column: string, negate: boolean): Expr {
    const tok = this.next()
    const fn = tok.text.toLowerCase()
    this.expect('(')
    if (fn === 'exists') {
      this.expect(')')
      return { op: 'cmp', column, cmp: negate ? '=' : '!=', value: null }
    }
    if (!['re', 'match', 'wildcard'].includes(fn))
      throw queryError(
        tok.pos,
        `unknown filter function ${tok.text}(); use re, match, wildcard or exists`,
      )
    const p = this.peek()
    if (p.type !== 'string') this.fail(`a quoted pattern in ${fn}()`)
    this.next()
    this.expect(')')
    if (fn === 'wildcard') return { op: 're', column, pattern: wildcardRegex(p.text), negate }
    return { op: fn as 're' | 'match', column, pattern: p.text, negate }
  }

  literalList(): Literal[] {
    const close = this.isPunct('(') ? ')' : ']'
    this.expect(close === ')' ? '(' : '[')
    const out: Literal[] = []
    while (!this.isPunct(close)) {
      if (out.length) this.expect(',')
      out.push(this.literal())
    }
    this.next()
    return out
  }

  literal(): Literal {
    const tok = this.peek()
    if (tok.type === 'string') return this.next().text
    if (tok.type === 'number') return this.next().value!
    if (this.kw('TRUE')) return true
    if (this.kw('FALSE')) return false
    if (this.kw('NULL')) return null
    return this.fail('a value (a quoted string, a number, true, false or null)')
  }
}
