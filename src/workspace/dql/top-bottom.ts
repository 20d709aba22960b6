/**
 * `top(field, n)` and `bottom(field, n)`: the n rows of each series with the largest (smallest)
 * values of the field, with their times. Planned as a raw query, no engine support needed: the
 * field (non-null) as an output, ordered by it, n rows per series. Other plain fields may be
 * selected beside it; only one top/bottom per query.
 */
import type { Expr, SelectItem } from './ast.js'
import { queryError } from './lexer.js'

export interface TopBottom {
  /** The select list with the call replaced by its field. */
  items: SelectItem[]
  /** The output that orders, at its index in `items`. */
  output: number
  desc: boolean
  n: number
  /** `field != null`, to AND with the where-clause. */
  notNull: Expr
}

export function topBottom(items: SelectItem[]): TopBottom | null {
  const at = items.findIndex(
    (it) => it.expr.kind === 'call' && ['top', 'bottom'].includes(it.expr.name.toLowerCase()),
  )
  if (at < 0) return null
  const call = items[at].expr as Extract<SelectItem['expr'], { kind: 'call' }>
  const [field, n] = call.args
  if (call.args.length !== 2 || field.kind !== 'field' || field.name === '*')
    throw queryError(call.pos, `${call.name}(field, n) takes a field name and a count`)
  if (n.kind !== 'number' || !Number.isInteger(n.value) || n.value < 1)
    throw queryError(n.pos, `${call.name}(field, n) takes a whole n of at least 1`)
  const rest = items.filter((_, i) => i !== at)
  const other = rest.find((it) => it.expr.kind !== 'field')
  if (other)
    throw queryError(other.expr.pos, `only plain fields may be selected beside ${call.name}()`)
  const replaced = [...items]
  replaced[at] = { expr: field, alias: items[at].alias }
  return {
    items: replaced,
    output: at,
    desc: call.name.toLowerCase() === 'top',
    n: n.value,
    notNull: { op: 'cmp', column: field.name, cmp: '!=', value: null },
  }
}
