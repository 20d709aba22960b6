/**
 * A recursive-descent parser for the DQL subset Ferry answers:
 *
 *   ns[index]::source[:(item, ...)] [{where}] [[start:end:interval:rollup]]
 *     [BY tag, ...] [ORDER BY col [ASC|DESC], ...] [LIMIT n] [OFFSET n] [SLIMIT n] [SOFFSET n]
 *
 * item = name | func(name) | func(*), each with an optional `AS alias`; where = comparisons
 * (`= != <> < <= > >=`, `IN [..]`, `NOT IN`, `= re('..')`, `= match('..')`) joined by AND, OR,
 * `&&`, `||` or commas (AND), with parentheses and NOT. Every error names its position.
 */
import {
  AGG_FUNCS,
  type AggFunc,
  type Expr,
  type Literal,
  type OrderItem,
  type Query,
  type SelectItem,
} from './ast.js'
import { Cursor } from './cursor.js'
import { queryError, tokenize } from './lexer.js'
import { timeExpr } from './time-expr.js'
import { NAMESPACES } from '../store/names.js'

const CMP = ['=', '!=', '<>', '<', '<=', '>', '>=']

/**
 * Limits on where-clauses, so that the recursion here and in the SQL compiler stays far from
 * the stack's end: parentheses and NOTs nested at most `MAX_NESTING` deep, and at most
 * `MAX_CONDITIONS` comparisons (a chain of ANDs is as deep a tree as nested parentheses).
 */
export const MAX_NESTING = 100
export const MAX_CONDITIONS = 1000

class Parser extends Cursor {
  private depth = 0
  private conditions = 0

  query(): Query {
    const nsTok = this.peek()
    const ns = this.name('a namespace such as M, L or O')
    const category = NAMESPACES[ns] ?? NAMESPACES[ns.toUpperCase()]
    if (!category) throw queryError(nsTok.pos, `unknown namespace ${JSON.stringify(ns)}`)
    if (this.isPunct('[')) {
      this.next()
      this.name('an index name')
      this.expect(']')
    }
    this.expect('::')
    const source = this.name('a measurement, source or class name')
    const q: Query = {
      category,
      source,
      select: null,
      where: null,
      time: null,
      by: [],
      orderBy: [],
      limit: null,
      offset: null,
      slimit: null,
      soffset: null,
    }
    if (this.isPunct(':')) {
      this.next()
      this.expect('(')
      q.select = this.selectList()
      this.expect(')')
    }
    if (this.isPunct('{')) {
      this.next()
      q.where = this.orExpr()
      this.expect('}')
    }
    if (this.isPunct('[')) q.time = timeExpr(this)
    this.clauses(q)
    if (this.isPunct(';')) this.next()
    if (this.peek().type !== 'eof') this.fail('end of query')
    return q
  }

  clauses(q: Query): void {
    if (this.kw('BY')) q.by = this.nameList()
    if (this.isKw('HAVING') || this.isKw('SORDER'))
      throw queryError(this.peek().pos, `${this.peek().text.toUpperCase()} is not supported`)
    if (this.isKw('ORDER') && this.isKw('BY', 1)) {
      this.i += 2
      q.orderBy = this.orderList()
    }
    if (this.kw('LIMIT')) q.limit = this.integer('LIMIT')
    if (this.kw('OFFSET')) q.offset = this.integer('OFFSET')
    if (this.kw('SLIMIT')) q.slimit = this.integer('SLIMIT')
    if (this.kw('SOFFSET')) q.soffset = this.integer('SOFFSET')
  }

  nameList(): string[] {
    return this.commaList(() => this.name())
  }

  orderList(): OrderItem[] {
    const out: OrderItem[] = []
    do {
      if (out.length) this.next()
      const column = this.name('a column to order by')
      const desc = this.kw('DESC') ? true : (this.kw('ASC'), false)
      out.push({ column, desc })
    } while (this.isPunct(','))
    return out
  }

  selectList(): SelectItem[] {
    return this.commaList(() => this.selectItem())
  }

  selectItem(): SelectItem {
    const tok = this.peek()
    if (this.isPunct('*')) {
      this.next()
      return { kind: 'column', name: '*', alias: null }
    }
    const name = this.name('a field or function')
    let item: SelectItem
    if (this.isPunct('(')) {
      const func = name.toLowerCase() as AggFunc
      if (!AGG_FUNCS.includes(func))
        throw queryError(tok.pos, `unknown function ${name}(); use one of ${AGG_FUNCS.join(', ')}`)
      this.next()
      const arg = this.isPunct('*') ? this.next().text : this.name('a field name')
      this.expect(')')
      item = { kind: 'func', func, arg, alias: null }
    } else item = { kind: 'column', name, alias: null }
    if (this.kw('AS')) item.alias = this.name('an alias')
    return item
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
    const column = this.name('a field or tag name')
    const negate = this.kw('NOT')
    if (this.kw('IN')) return { op: 'in', column, values: this.literalList(), negate }
    if (negate) this.fail('IN after NOT')
    const opTok = this.peek()
    if (opTok.type !== 'punct' || !CMP.includes(opTok.text)) this.fail('a comparison operator')
    this.next()
    const cmp = (opTok.text === '<>' ? '!=' : opTok.text) as '=' | '!=' | '<' | '<=' | '>' | '>='
    if ((this.isKw('RE') || this.isKw('MATCH')) && this.t[this.i + 1].text === '(') {
      const fn = this.next().text.toLowerCase() as 're' | 'match'
      this.expect('(')
      const p = this.peek()
      if (p.type !== 'string') this.fail(`a quoted pattern in ${fn}()`)
      this.next()
      this.expect(')')
      if (cmp !== '=' && cmp !== '!=') throw queryError(opTok.pos, `${fn}() needs = or !=`)
      return { op: fn, column, pattern: p.text, negate: cmp === '!=' }
    }
    return { op: 'cmp', column, cmp, value: this.literal() }
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

export function parseQuery(text: string): Query {
  return new Parser(tokenize(text)).query()
}

/** The `conditions` option: a where-expression, with or without braces. */
export function parseConditions(text: string): Expr {
  const p = new Parser(tokenize(text))
  const braced = p.isPunct('{')
  if (braced) p.next()
  const e = p.orExpr()
  if (braced) p.expect('}')
  if (p.peek().type !== 'eof') p.fail('end of the conditions')
  return e
}
