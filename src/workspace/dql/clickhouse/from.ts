/**
 * What a plan reads, as a ClickHouse FROM item: the table; the newest row per object (`LIMIT 1
 * BY`, 18.16 has no window functions); several tables as one (a UNION ALL naming every merged
 * column with its stored type, NULL where a member lacks it, text where types differ, literals
 * for a member's constants); and, with a rollup, each series' rollup per bucket of every column
 * an aggregate reads. The rollup subquery applies the row filters itself and answers under
 * aliases of its own (`__rt`, `__c<i>`): the outer query reads it through `rolledScope`. A
 * metric table in the series layout is read through the join of series.ts.
 */
import type { QueryPlan, UnionMember } from '../plan.js'
import { aggregatesOf, type PlanValue } from '../plan-value.js'
import type { TableInfo } from '../../store/catalog.js'
import { chIdent, chString } from '../../store/clickhouse/sql.js'
import { TIME_COLUMN } from '../../store/names.js'
import { valueSql } from './select.js'
import { seriesFromSql } from './series.js'
import { CH_TYPES, ref, type Scope } from './sql.js'

function memberSql(table: string, merged: TableInfo, m: UnionMember): string {
  const cols = merged.columns.map((c) => {
    const own = m.info.byName.get(c.name)
    let v = `CAST(NULL AS ${CH_TYPES[c.type]})`
    if (m.constants[c.name] !== undefined) v = `toNullable(${chString(m.constants[c.name])})`
    else if (own)
      v = own.type === c.type ? chIdent(own.phys) : `toNullable(toString(${chIdent(own.phys)}))`
    return `${v} AS ${chIdent(c.phys)}`
  })
  return `SELECT ${[chIdent(TIME_COLUMN), ...cols].join(', ')} FROM ${table}`
}

/** `ref` names a table of the plan's workspace in SQL (the engine's `tableRef`). */
export type TableRef = (table: string) => string

export function tableSql(scope: Scope, plan: QueryPlan, tableRef: TableRef): string {
  const { source } = plan
  if (source.union) {
    const parts = source.union.map((m) => memberSql(tableRef(m.table), scope.table, m))
    return `(${parts.join(' UNION ALL ')})`
  }
  const latest = source.latestBy && scope.table.byName.get(source.latestBy)
  // The newest row per object is taken before the range: nothing is pushed below it.
  if (!latest && scope.table.parts) return seriesFromSql(scope, plan)
  const table = tableRef(source.table)
  if (!latest) return table
  const t = chIdent(TIME_COLUMN)
  return `(SELECT * FROM ${table} ORDER BY ${t} DESC LIMIT 1 BY ${chIdent(latest.phys)})`
}

/** The columns the rollup reads: every aggregated column the table has. */
function rolledColumns(scope: Scope, plan: QueryPlan): string[] {
  const read = new Set(
    plan.outputs.flatMap((o) => aggregatesOf(o as PlanValue)).map((a) => a.column),
  )
  return [...read].filter((c) => c !== '*' && scope.table.byName.has(c))
}

/** The series keys and rolled columns under the rollup subquery's aliases. */
export function rolledScope(scope: Scope, plan: QueryPlan): Scope {
  const keep = [...plan.rollup!.seriesKey, ...rolledColumns(scope, plan)]
  const columns = scope.table.columns
    .filter((c) => keep.includes(c.name))
    .map((c) => ({ ...c, phys: `__c${scope.table.columns.indexOf(c)}` }))
  const table = { ...scope.table, columns, byName: new Map(columns.map((c) => [c.name, c])) }
  return { table, params: scope.params, time: chIdent('__rt') }
}

/** The rollup subquery: series tags, the bucket as time, each read column rolled up. */
export function rollupSql(
  scope: Scope,
  plan: QueryPlan,
  from: string,
  where: string,
  bucket: string,
) {
  const r = plan.rollup!
  const out = rolledScope(scope, plan)
  const keys = r.seriesKey.filter((k) => scope.table.byName.has(k))
  const groups = [...keys.map((k) => ref(scope, k)), bucket]
  const cols = [
    ...keys.map((k) => `${ref(scope, k)} AS ${ref(out, k)}`),
    `${bucket} AS ${out.time}`,
  ]
  for (const c of rolledColumns(scope, plan)) {
    const v: PlanValue = { kind: 'aggregate', func: r.func, column: c }
    if (r.param !== undefined) v.param = r.param
    cols.push(`${valueSql(scope, v)} AS ${ref(out, c)}`)
  }
  return `(SELECT ${cols.join(', ')} FROM ${from} WHERE ${where} GROUP BY ${groups.join(', ')})`
}
