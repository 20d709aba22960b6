/**
 * A recursive-descent parser for DQL statements in the documented clause order:
 *
 *   ns[index]::[index::]source[:(item, ...)] [{where}] [[start:end:interval:rollup]]
 *     [BY tag, ...] [HAVING cond] [ORDER BY expr [ASC|DESC], ...] [LIMIT n] [OFFSET n]
 *     [SORDER BY expr [ASC|DESC], ...] [SLIMIT n] [SOFFSET n]
 *
 * source = name | `*` | re('pattern'); item = a select expression (select-expr.ts) with an
 * optional `AS alias`; where = comparisons (`= != <> < <= > >=`, `IN [..]`, `NOT IN`,
 * `IS [NOT] NULL`, `= re('..')`, `= match('..')`, `= wildcard('..')`, `= exists()`) joined by
 * AND, OR, `&&`, `||` or commas (AND), with parentheses and NOT. HAVING is a where-clause whose
 * left sides are select expressions or aliases. Every error names its position.
 */
import type { Expr, OrderItem, Query, SelectItem } from './ast.js'
import { queryError, tokenize } from './lexer.js'
import { exprText, selExpr } from './select-expr.js'
import { timeExpr } from './time-expr.js'
import { WhereParser } from './where-parser.js'
import { NAMESPACES } from '../store/names.js'
import type { Category } from '../../shared/category.js'

/** A query of one namespace with every clause absent. */
function emptyQuery(category: Category, index: string | null): Query {
  return {
    category,
    source: '',
    sourceRe: null,
    index,
    select: null,
    where: null,
    time: null,
    by: [],
    having: null,
    orderBy: [],
    limit: null,
    offset: null,
    sorderBy: [],
    slimit: null,
    soffset: null,
  }
}

class Parser extends WhereParser {
  query(): Query {
    const nsTok = this.peek()
    const ns = this.name('a namespace such as M, L or O')
    const category = NAMESPACES[ns] ?? NAMESPACES[ns.toUpperCase()]
    if (!category) throw queryError(nsTok.pos, `unknown namespace ${JSON.stringify(ns)}`)
    let index: string | null = null
    if (this.isPunct('[')) {
      this.next()
      index = this.name('an index name')
      this.expect(']')
    }
    this.expect('::')
    const q = emptyQuery(category, index)
    this.source(q)
    if (this.isPunct(':')) {
      this.next()
      this.expect('(')
      q.select = this.isPunct(')') ? null : this.selectList()
      this.expect(')')
    }
    if (this.isPunct('{')) {
      this.next()
      q.where = this.isPunct('}') ? null : this.orExpr()
      this.expect('}')
    }
    if (this.isPunct('[')) q.time = timeExpr(this)
    this.clauses(q)
    if (this.isPunct(';')) this.next()
    if (this.peek().type !== 'eof') this.fail('end of query')
    return q
  }

  /** `name`, `index::name`, `*` (also quoted) or `re('pattern')`. */
  source(q: Query): void {
    if (this.isPunct('*')) {
      this.next()
      q.source = '*'
      q.sourceRe = '.*'
      return
    }
    const tok = this.peek()
    if (this.isKw('RE') && this.t[this.i + 1].text === '(') {
      this.i += 2
      const p = this.peek()
      if (p.type !== 'string') this.fail('a quoted pattern in re()')
      this.next()
      this.expect(')')
      q.source = `re(${JSON.stringify(p.text)})`
      q.sourceRe = p.text
      return
    }
    const name = this.name('a measurement, source or class name')
    if (this.isPunct('::') && q.index === null) {
      this.next()
      q.index = name
      return this.source(q)
    }
    q.source = name
    if (name === '*' && tok.type === 'quoted') q.sourceRe = '.*'
  }

  clauses(q: Query): void {
    if (this.kw('BY')) q.by = this.nameList()
    if (this.kw('HAVING')) q.having = this.having()
    if (this.isKw('ORDER') && this.isKw('BY', 1)) {
      this.i += 2
      q.orderBy = this.orderList()
    }
    if (this.kw('LIMIT')) q.limit = this.integer('LIMIT')
    if (this.kw('OFFSET')) q.offset = this.integer('OFFSET')
    if (this.isKw('SORDER') && this.isKw('BY', 1)) {
      this.i += 2
      q.sorderBy = this.orderList()
    }
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
      const column = exprText(selExpr(this))
      const desc = this.kw('DESC') ? true : (this.kw('ASC'), false)
      out.push({ column, desc })
    } while (this.isPunct(','))
    return out
  }

  selectList(): SelectItem[] {
    return this.commaList(() => this.selectItem())
  }

  selectItem(): SelectItem {
    if (this.isPunct('*')) {
      const pos = this.next().pos
      return { expr: { kind: 'field', name: '*', pos }, alias: null }
    }
    const item: SelectItem = { expr: selExpr(this), alias: null }
    if (this.kw('AS')) item.alias = this.name('an alias')
    return item
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

export { MAX_CONDITIONS, MAX_NESTING } from './where-parser.js'
