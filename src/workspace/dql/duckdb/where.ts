/**
 * DQL conditions as DuckDB SQL. Values always travel as parameters. A comparison adapts to
 * the column's type: a number against a text column compares numerically where the text is a
 * number, a string against a number column compares the number's text.
 */
import type { Expr, Literal } from '../ast.js'
import { TIME_COLUMN } from '../../store/names.js'
import { bad } from '../invalid.js'
import { conditionSql, type Cmp } from '../condition-sql.js'
import { column, nsLiteral, numLiteral, ref, type Scope } from './sql.js'

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

function pattern(scope: Scope, name: string, re: string, caseless: boolean, negate: boolean) {
  const flags = caseless ? ", 'i'" : ''
  const m = `coalesce(regexp_matches(CAST(${ref(scope, name)} AS VARCHAR), ${scope.params.add(re)}${flags}), FALSE)`
  return negate ? `NOT ${m}` : m
}

export function condition(scope: Scope, e: Expr): string {
  return conditionSql(
    {
      comparison: (name, cmp, value) => comparison(scope, name, cmp, value),
      pattern: (name, re, caseless, negate) => pattern(scope, name, re, caseless, negate),
      orFalse: (sql) => `coalesce(${sql}, FALSE)`,
      true: 'TRUE',
      false: 'FALSE',
    },
    e,
  )
}
