/**
 * HAVING on answer rows: a where-expression evaluated against the named outputs of one row,
 * with the engines' comparison rules (numbers numerically, text as text, null only equals
 * null, a pattern never matches null).
 */
import type { Expr, Literal } from './ast.js'

type Get = (name: string) => unknown

function compare(a: unknown, b: Literal): number | null {
  if (a === null || a === undefined || b === null) return null
  if (typeof b === 'number') {
    const n = typeof a === 'number' ? a : Number(a)
    return Number.isNaN(n) ? null : n - b
  }
  const s = String(a)
  const t = String(b)
  return s < t ? -1 : s > t ? 1 : 0
}

function cmp(op: string, a: unknown, b: Literal): boolean {
  if (b === null) {
    const isNull = a === null || a === undefined
    return op === '=' ? isNull : op === '!=' ? !isNull : false
  }
  const c = compare(a, b)
  if (c === null) return false
  if (op === '=') return c === 0
  if (op === '!=') return c !== 0
  if (op === '<') return c < 0
  if (op === '<=') return c <= 0
  if (op === '>') return c > 0
  return c >= 0
}

export function rowMatches(e: Expr, get: Get): boolean {
  switch (e.op) {
    case 'and':
      return rowMatches(e.left, get) && rowMatches(e.right, get)
    case 'or':
      return rowMatches(e.left, get) || rowMatches(e.right, get)
    case 'not':
      return !rowMatches(e.expr, get)
    case 'cmp':
      return cmp(e.cmp, get(e.column), e.value)
    case 'in': {
      const any = e.values.some((v) => cmp('=', get(e.column), v))
      return e.negate ? !any : any
    }
    case 're':
    case 'match': {
      const v = get(e.column)
      if (v === null || v === undefined) return false
      const hit = new RegExp(e.pattern, e.op === 'match' ? 'i' : '').test(String(v))
      return e.negate ? !hit : hit
    }
  }
}
