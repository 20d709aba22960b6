/**
 * Select-list expressions: `field`, `func(arg, ...)`, numbers, strings and arithmetic with the
 * usual precedence (`* / %` before `+ -`, parentheses). A name directly followed by `(` is a
 * call; `*` stands alone only as a call's argument (`count(*)`). Names may hold `-` and `.`,
 * so a minus between two names needs spaces (`a - b`). `exprText` prints an expression in one
 * canonical form: outputs without an alias are named by it, and ORDER BY, SORDER BY and HAVING
 * refer to an output by it (`ORDER BY avg(usage)`).
 */
import type { ArithOp, SelExpr } from './ast.js'
import type { Cursor } from './cursor.js'

const ADD: ArithOp[] = ['+', '-']
const MUL: ArithOp[] = ['*', '/', '%']

function binary(c: Cursor, ops: ArithOp[], operand: () => SelExpr): SelExpr {
  let left = operand()
  for (;;) {
    const tok = c.peek()
    if (tok.type !== 'punct' || !ops.includes(tok.text as ArithOp)) return left
    c.next()
    left = { kind: 'binary', op: tok.text as ArithOp, left, right: operand(), pos: left.pos }
  }
}

export function selExpr(c: Cursor): SelExpr {
  return binary(c, ADD, () => binary(c, MUL, () => primary(c)))
}

function callArgs(c: Cursor): SelExpr[] {
  c.expect('(')
  const args: SelExpr[] = []
  while (!c.isPunct(')')) {
    if (args.length) c.expect(',')
    const tok = c.peek()
    if (c.isPunct('*')) {
      c.next()
      args.push({ kind: 'field', name: '*', pos: tok.pos })
    } else args.push(selExpr(c))
  }
  c.next()
  return args
}

function primary(c: Cursor): SelExpr {
  const tok = c.peek()
  if (tok.type === 'number') return { kind: 'number', value: c.next().value!, pos: tok.pos }
  if (tok.type === 'string') return { kind: 'string', value: c.next().text, pos: tok.pos }
  if (c.isPunct('(')) {
    c.next()
    const e = selExpr(c)
    c.expect(')')
    return e
  }
  const name = c.name('a field, a number or a function call')
  if (tok.type === 'ident' && c.isPunct('('))
    return { kind: 'call', name, args: callArgs(c), pos: tok.pos }
  return { kind: 'field', name, pos: tok.pos }
}

export function exprText(e: SelExpr): string {
  switch (e.kind) {
    case 'field':
      return e.name
    case 'number':
      return String(e.value)
    case 'string':
      return JSON.stringify(e.value)
    case 'call':
      return `${e.name}(${e.args.map(exprText).join(', ')})`
    case 'binary': {
      const side = (x: SelExpr) => (x.kind === 'binary' ? `(${exprText(x)})` : exprText(x))
      return `${side(e.left)} ${e.op} ${side(e.right)}`
    }
  }
}
