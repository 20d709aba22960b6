/**
 * DQL conditions as ClickHouse SQL, with DuckDB's type rules (duckdb/where.ts): a number
 * against a text column compares numerically where the text is a number, a string against a
 * number column compares the number's text. 18.16 has no TRUE/FALSE: conditions are 1 or 0,
 * NULL reads as false. Patterns use RE2. A caseless one is wrapped in `(?i:...)`: 18.16 ignores a
 * leading `(?i)` when it looks for the pattern's required substring, so `(?i)get` misses `GET`.
 */
import type { Expr, Literal } from '../ast.js'
import { TIME_COLUMN } from '../../store/names.js'
import { bad } from '../invalid.js'
import { conditionSql, type Cmp } from '../condition-sql.js'
import { column, nsLiteral, numLiteral, ref, text, type Scope } from './sql.js'

const sqlOp = (cmp: Cmp) => (cmp === '!=' ? '<>' : cmp)

function nullCmp(col: string, cmp: Cmp): string {
  if (cmp === '=') return `isNull(${col})`
  if (cmp === '!=') return `isNotNull(${col})`
  return '0'
}

export function comparison(scope: Scope, name: string, cmp: Cmp, value: Literal): string {
  const op = sqlOp(cmp)
  if (name === TIME_COLUMN) {
    if (typeof value !== 'number') throw bad('time is compared with Unix milliseconds')
    return `${ref(scope, name)} ${op} ${nsLiteral(value)}`
  }
  const col = ref(scope, name)
  if (value === null) return nullCmp(col, cmp)
  const type = column(scope, name)?.type
  if (type === undefined) return '0'
  if (typeof value === 'number') {
    if (type === 'VARCHAR') return `toFloat64OrNull(${col}) ${op} ${numLiteral(value)}`
    return `${col} ${op} ${numLiteral(value)}`
  }
  if (typeof value === 'boolean' && type === 'BOOLEAN') return `${col} ${op} ${value ? 1 : 0}`
  return `${text(scope, name)} ${op} ${scope.params.add(String(value))}`
}

function pattern(s: Scope, name: string, re: string, caseless: boolean, negate: boolean) {
  const m = `ifNull(match(${text(s, name)}, ${s.params.add(caseless ? `(?i:${re})` : re)}), 0)`
  return negate ? `NOT ${m}` : m
}

export function condition(scope: Scope, e: Expr): string {
  return conditionSql(
    {
      comparison: (name, cmp, value) => comparison(scope, name, cmp, value),
      pattern: (name, re, caseless, negate) => pattern(scope, name, re, caseless, negate),
      orFalse: (sql) => `ifNull(${sql}, 0)`,
      true: '1',
      false: '0',
    },
    e,
  )
}
