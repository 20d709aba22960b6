/**
 * Parses IO filter conditions into a tree. A filter string holds one or more `{...}` groups
 * (separated by `;`); a group holds conditions separated by commas, all of which must hold;
 * a condition combines comparisons with `and`/`or` (`&&`/`||`) and parentheses, `and` binding
 * tighter. Comparisons: `key op literal` (op one of = == != <> < <= > >=), `key in [...]`,
 * `key notin [...]` (also `not_in`), `key match [...]`, `key notmatch [...]`; literals are
 * quoted strings, numbers, true/false, nil/null and `re('regex')`.
 *
 * Invariant: a string that parses gives at least one group; an empty one is an error, so a
 * configured filter can never silently match nothing by mistake of syntax.
 */
import { FilterSyntaxError, lex, type Token } from './lexer.js'

export type Literal =
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number; int: boolean }
  | { kind: 'bool'; value: boolean }
  | { kind: 'nil' }
  | { kind: 'regex'; value: RegExp; source: string }

export type CompareOp = '=' | '!=' | '<' | '<=' | '>' | '>='
export type ListOp = 'in' | 'notin' | 'match' | 'notmatch'

export type Expr =
  | { kind: 'and' | 'or'; left: Expr; right: Expr }
  | { kind: 'compare'; key: string; op: CompareOp; value: Literal }
  | { kind: 'list'; key: string; op: ListOp; values: Literal[] }

/** One `{...}`: every condition must hold. */
export type Group = Expr[]

const COMPARE: Record<string, CompareOp> = {
  '=': '=',
  '==': '=',
  '!=': '!=',
  '<>': '!=',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
}
const LISTS: Record<string, ListOp> = {
  in: 'in',
  notin: 'notin',
  not_in: 'notin',
  match: 'match',
  notmatch: 'notmatch',
}

class Parser {
  private i = 0
  constructor(private readonly t: Token[]) {}

  private peek(): Token {
    return this.t[this.i]
  }
  private next(): Token {
    return this.t[this.i++]
  }
  private is(text: string): boolean {
    const k = this.peek()
    return (k.kind === 'punct' || k.kind === 'op' || k.kind === 'keyword') && k.text === text
  }
  private expect(text: string): void {
    if (!this.is(text)) this.fail(`expected ${JSON.stringify(text)}`)
    this.i++
  }
  private fail(msg: string): never {
    const k = this.peek()
    throw new FilterSyntaxError(
      `${msg}, found ${k.kind === 'eof' ? 'the end' : JSON.stringify(k.text)}`,
      k.pos,
    )
  }

  groups(): Group[] {
    const out: Group[] = []
    while (this.peek().kind !== 'eof') {
      if (this.is(';')) { this.i++; continue } // prettier-ignore
      this.expect('{')
      const g: Group = []
      while (!this.is('}')) {
        g.push(this.or())
        if (!this.is(',')) break
        this.i++
      }
      this.expect('}')
      if (g.length) out.push(g)
    }
    if (!out.length) throw new FilterSyntaxError('no condition', 0)
    return out
  }

  private or(): Expr {
    let left = this.and()
    while (this.is('or') || this.is('||')) {
      this.i++
      left = { kind: 'or', left, right: this.and() }
    }
    return left
  }

  private and(): Expr {
    let left = this.primary()
    while (this.is('and') || this.is('&&')) {
      this.i++
      left = { kind: 'and', left, right: this.primary() }
    }
    return left
  }

  private primary(): Expr {
    if (this.is('(')) {
      this.i++
      const e = this.or()
      this.expect(')')
      return e
    }
    const k = this.next()
    if (k.kind !== 'ident') { this.i--; this.fail('expected a key') } // prettier-ignore
    const op = this.next()
    if (op.kind === 'op' && COMPARE[op.text])
      return { kind: 'compare', key: k.text, op: COMPARE[op.text], value: this.literal() }
    if (op.kind === 'keyword' && LISTS[op.text])
      return { kind: 'list', key: k.text, op: LISTS[op.text], values: this.list() }
    this.i--
    return this.fail('expected an operator')
  }

  private list(): Literal[] {
    this.expect('[')
    const out: Literal[] = []
    while (!this.is(']')) {
      out.push(this.literal())
      if (!this.is(',')) break
      this.i++
    }
    this.expect(']')
    return out
  }

  private literal(): Literal {
    const k = this.next()
    if (k.kind === 'string') return { kind: 'string', value: k.text }
    if (k.kind === 'number')
      return { kind: 'number', value: Number(k.text), int: /^[-+]?\d+$/.test(k.text) }
    if (k.kind === 'keyword' && (k.text === 'true' || k.text === 'false'))
      return { kind: 'bool', value: k.text === 'true' }
    if (k.kind === 'keyword' && (k.text === 'nil' || k.text === 'null')) return { kind: 'nil' }
    if (k.kind === 'keyword' && k.text === 're') return this.regex()
    this.i--
    return this.fail('expected a value')
  }

  private regex(): Literal {
    this.expect('(')
    const s = this.next()
    if (s.kind !== 'string') { this.i--; this.fail('expected a quoted regex') } // prettier-ignore
    this.expect(')')
    try {
      return { kind: 'regex', value: new RegExp(s.text), source: s.text }
    } catch (e) {
      throw new FilterSyntaxError(`bad regex: ${(e as Error).message}`, s.pos)
    }
  }
}

/** Parses one filter string; throws FilterSyntaxError with the offset of the problem. */
export function parseFilter(src: string): Group[] {
  return new Parser(lex(src)).groups()
}
