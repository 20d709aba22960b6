/**
 * A DQL condition tree as SQL, for any dialect: the tree's shape (AND, OR, NOT, IN, patterns)
 * is the same everywhere; a dialect says how to compare one column with one value, how to test
 * a pattern, and how NULL reads as false. A NOT or NOT IN over NULL is true, as DQL means it.
 */
import type { Expr, Literal } from './ast.js'
import { bad } from './invalid.js'

export type Cmp = Extract<Expr, { op: 'cmp' }>['cmp']

export interface ConditionDialect {
  comparison(name: string, cmp: Cmp, value: Literal): string
  /** A regular expression test, already checked (`checkPattern`); NULL reads as false. */
  pattern(name: string, re: string, caseless: boolean, negate: boolean): string
  /** `sql`, with NULL read as false. */
  orFalse(sql: string): string
  readonly true: string
  readonly false: string
}

/** Refuses a pattern that is not a valid regular expression. */
export function checkPattern(re: string): void {
  try {
    new RegExp(re)
  } catch (e) {
    throw bad(`invalid pattern ${JSON.stringify(re)}: ${(e as Error).message}`)
  }
}

export function conditionSql(d: ConditionDialect, e: Expr): string {
  switch (e.op) {
    case 'and':
    case 'or':
      return `(${conditionSql(d, e.left)} ${e.op.toUpperCase()} ${conditionSql(d, e.right)})`
    case 'not':
      return `NOT ${d.orFalse(conditionSql(d, e.expr))}`
    case 'cmp':
      return d.comparison(e.column, e.cmp, e.value)
    case 'in': {
      if (!e.values.length) return e.negate ? d.true : d.false
      const any = `(${e.values.map((v) => d.comparison(e.column, '=', v)).join(' OR ')})`
      return e.negate ? `NOT ${d.orFalse(any)}` : any
    }
    case 're':
    case 'match':
      checkPattern(e.pattern)
      return d.pattern(e.column, e.pattern, e.op === 'match', e.negate)
  }
}
