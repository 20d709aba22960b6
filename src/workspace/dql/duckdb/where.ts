/**
 * DQL conditions as DuckDB SQL. Values always travel as parameters. A comparison adapts to
 * the column's type: a number against a text column compares numerically where the text is a
 * number, a string against a number column compares the number's text.
 */
import type { Expr, Literal } from '../ast.js'
import { TIME_COLUMN } from '../../store/names.js'
import { bad } from '../invalid.js'
import { column, nsLiteral, numLiteral, ref, type Scope } from './sql.js'

type Cmp = '=' | '!=' | '<' | '<=' | '>' | '>='

function sqlOp(cmp: Cmp): string {
  return cmp === '!=' ? '<>' : cmp
}

function nullCmp(col: string, cmp: Cmp): string {
  if (cmp === '=') return `${col} IS NULL`
  if (cmp === '!=') return `${col} IS NOT NULL`
  return 'FALSE'
}

export function comparison(scope: Scope, name: string, cmp: Cmp, value: Literal): string {
  const p = scope.params
  if (name === TIME_COLUMN) {
    if (typeof value !== 'number') throw bad('time is compared with Unix milliseconds')
    return `${ref(scope, name)} ${sqlOp(cmp)} ${nsLiteral(value)}`
  }
  const col = ref(scope, name)
  if (value === null) return nullCmp(col, cmp)
  const type = column(scope, name)?.type
  if (type === undefined) return 'FALSE'
  const op = sqlOp(cmp)
  if (typeof value === 'number') {
    if (type === 'DOUBLE') return `${col} ${op} ${numLiteral(value)}`
    return `TRY_CAST(${col} AS DOUBLE) ${op} ${numLiteral(value)}`
  }
  if (typeof value === 'boolean' && type === 'BOOLEAN') return `${col} ${op} ${p.add(value)}`
  const text = type === 'VARCHAR' ? col : `CAST(${col} AS VARCHAR)`
  return `${text} ${op} ${p.add(String(value))}`
}

function pattern(
  scope: Scope,
  name: string,
  re: string,
  caseless: boolean,
  negate: boolean,
): string {
  try {
    new RegExp(re)
  } catch (e) {
    throw bad(`invalid pattern ${JSON.stringify(re)}: ${(e as Error).message}`)
  }
  const flags = caseless ? ", 'i'" : ''
  const m = `coalesce(regexp_matches(CAST(${ref(scope, name)} AS VARCHAR), ${scope.params.add(re)}${flags}), FALSE)`
  return negate ? `NOT ${m}` : m
}

export function condition(scope: Scope, e: Expr): string {
  switch (e.op) {
    case 'and':
    case 'or':
      return `(${condition(scope, e.left)} ${e.op.toUpperCase()} ${condition(scope, e.right)})`
    case 'not':
      return `NOT coalesce(${condition(scope, e.expr)}, FALSE)`
    case 'cmp':
      return comparison(scope, e.column, e.cmp, e.value)
    case 'in': {
      if (!e.values.length) return e.negate ? 'TRUE' : 'FALSE'
      const any = `(${e.values.map((v) => comparison(scope, e.column, '=', v)).join(' OR ')})`
      return e.negate ? `NOT coalesce(${any}, FALSE)` : any
    }
    case 're':
    case 'match':
      return pattern(scope, e.column, e.pattern, e.op === 'match', e.negate)
  }
}
