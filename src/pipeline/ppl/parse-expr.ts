/**
 * Platypus expressions with the reference's precedence (|| < && < in < comparison < + - <
 * * / % < unary < postfix: `.`, index, slice) and the primaries: literals, names, calls with
 * positional then named arguments, lists, maps, parentheses.
 */
import type { At, Expr } from './ast.js'
import { Cursor } from './cursor.js'

const LEVELS = [
  ['||'],
  ['&&'],
  ['in'],
  ['==', '!=', '<', '<=', '>', '>='],
  ['+', '-'],
  ['*', '/', '%'],
]

export class ExprParser extends Cursor {
  expr(level = 0): Expr {
    if (level === LEVELS.length) return this.unary()
    let left = this.expr(level + 1)
    while (this.tok.kind !== 'str' && LEVELS[level].includes(this.tok.text)) {
      const at = this.at()
      const op = this.tok.text
      this.i++
      this.skipNewlines()
      const right = this.expr(level + 1)
      left = op === 'in' ? { t: 'in', left, right, ...at } : { t: 'binary', op, left, right, ...at }
    }
    return left
  }

  protected unary(): Expr {
    if (this.isOp('!') || this.isOp('-')) {
      const at = this.at()
      const op = this.tok.text
      this.i++
      return { t: 'unary', op, arg: this.unary(), ...at }
    }
    return this.postfix(this.primary())
  }

  protected postfix(e: Expr): Expr {
    for (;;) {
      const at = this.at()
      if (this.isOp('.')) {
        this.i++
        if (this.tok.kind !== 'id') this.fail('expected a name after "."')
        e = { t: 'attr', obj: e, name: this.tok.text, ...at }
        this.i++
      } else if (this.isOp('[')) {
        this.i++
        e = this.indexOrSlice(e, at)
      } else return e
    }
  }

  /** After `[`: `e[i]`, or a slice `e[start:end]` / `e[start:end:step]`, parts optional. */
  protected indexOrSlice(obj: Expr, at: At): Expr {
    this.skipNewlines()
    const part = () => (this.isOp(':') || this.isOp(']') ? null : this.expr())
    const start = part()
    if (!this.isOp(':')) {
      if (start === null) this.fail(`unexpected ${this.describe()}`)
      this.expectOp(']')
      return { t: 'index', obj, index: start!, ...at }
    }
    this.i++
    this.skipNewlines()
    const end = part()
    let step: Expr | null = null
    if (this.isOp(':')) {
      this.i++
      this.skipNewlines()
      step = part()
    }
    this.expectOp(']')
    return { t: 'slice', obj, start, end, step, ...at }
  }

  protected list<T>(close: string, item: () => T): T[] {
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

  protected primary(): Expr {
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

  protected call(name: string, at: At): Expr {
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
