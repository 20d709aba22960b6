/**
 * What a plan reads, as a DuckDB FROM item: the table; the newest row per object; several
 * tables as one (a UNION ALL naming every merged column, NULL where a member lacks it, text
 * where types differ, literals for a member's constants); and, with a rollup, each series'
 * rollup per bucket of every column an aggregate reads, so that the outer query aggregates
 * series instead of rows. The rollup subquery applies the row filters itself.
 */
import type { QueryPlan, UnionMember } from '../plan.js'
import { aggregatesOf, type PlanValue } from '../plan-value.js'
import { ident, qualified, TIME_COLUMN } from '../../store/names.js'
import type { TableInfo } from '../../store/catalog.js'
import { valueSql } from './select.js'
import { ref, type Scope } from './sql.js'

function textLiteral(s: string): string {
  return `'${s.replaceAll("'", "''")}'`
}

function memberSql(ws: string, merged: TableInfo, m: UnionMember): string {
  const cols = merged.columns.map((c) => {
    const own = m.info.byName.get(c.name)
    let v = 'NULL'
    if (m.constants[c.name] !== undefined) v = textLiteral(m.constants[c.name])
    else if (own) v = own.type === c.type ? ident(own.phys) : `CAST(${ident(own.phys)} AS VARCHAR)`
    return `${v} AS ${ident(c.phys)}`
  })
  const t = ident(TIME_COLUMN)
  return `SELECT ${[t, ...cols].join(', ')} FROM ${qualified(ws, m.info.phys)}`
}

export function tableSql(scope: Scope, plan: QueryPlan): string {
  const { source } = plan
  if (source.union) {
    const parts = source.union.map((m) => memberSql(source.workspaceId, scope.table, m))
    return `(${parts.join(' UNION ALL ')})`
  }
  const table = qualified(source.workspaceId, scope.table.phys)
  const latest = source.latestBy && scope.table.byName.get(source.latestBy)
  if (!latest) return table
  return `(SELECT * FROM ${table} QUALIFY row_number() OVER (PARTITION BY ${ident(latest.phys)} ORDER BY ${ident(TIME_COLUMN)} DESC) = 1)`
}

/** The rollup subquery: series tags, the bucket as time, each read column rolled up. */
export function rollupSql(
  scope: Scope,
  plan: QueryPlan,
  from: string,
  where: string,
  time: string,
) {
  const r = plan.rollup!
  const read = new Set(
    plan.outputs.flatMap((o) => aggregatesOf(o as PlanValue)).map((a) => a.column),
  )
  read.delete('*')
  const keys = r.seriesKey.filter((k) => scope.table.byName.has(k))
  const cols = [
    ...keys.map((k) => `${ref(scope, k)} AS ${ref(scope, k)}`),
    `${time} AS ${ident(TIME_COLUMN)}`,
  ]
  for (const c of read) {
    if (!scope.table.byName.has(c)) continue
    const v: PlanValue = { kind: 'aggregate', func: r.func, column: c }
    if (r.param !== undefined) v.param = r.param
    cols.push(`${valueSql(scope, v)} AS ${ref(scope, c)}`)
  }
  return `(SELECT ${cols.join(', ')} FROM ${from} WHERE ${where} GROUP BY ALL)`
}
