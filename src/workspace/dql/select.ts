/**
 * The select list and ORDER BY of a DQL statement: `*` expands to every column of the table
 * except the BY tags; aggregates and plain fields cannot be mixed. Output columns are named
 * by their alias, else the field name, else the call as written (`avg(usage_idle)`).
 */
import type { OrderItem, Query, SelectItem } from './ast.js'
import { ident, TIME_COLUMN } from '../store/names.js'
import { bad, column, ref, type Scope } from './sql.js'

export interface Output {
  /** The name in the response's `columns`. */
  name: string
  sql: string
}

export function expandSelect(scope: Scope, q: Query): SelectItem[] {
  const items = q.select ?? [{ kind: 'column', name: '*', alias: null }]
  return items.flatMap((it): SelectItem[] =>
    it.kind === 'column' && it.name === '*'
      ? scope.table.columns
          .filter((c) => !q.by.includes(c.name))
          .map((c) => ({ kind: 'column', name: c.name, alias: null }))
      : [it],
  )
}

function aggregate(scope: Scope, it: Extract<SelectItem, { kind: 'func' }>): string {
  if (it.arg === '*') {
    if (it.func !== 'count') throw bad(`${it.func}(*) is not allowed; only count(*)`)
    return 'count(*)'
  }
  const col = column(scope, it.arg)
  let arg = ref(scope, it.arg)
  if (!col) arg = 'CAST(NULL AS DOUBLE)'
  else if (col.type !== 'DOUBLE' && (it.func === 'avg' || it.func === 'sum'))
    arg = `TRY_CAST(${arg} AS DOUBLE)`
  const t = ident(TIME_COLUMN)
  if (it.func === 'last') return `arg_max(${arg}, ${t})`
  if (it.func === 'first') return `arg_min(${arg}, ${t})`
  return `${it.func}(${arg})`
}

export function outputs(
  scope: Scope,
  items: SelectItem[],
): { list: Output[]; aggregated: boolean } {
  const aggregated = items.some((it) => it.kind === 'func')
  if (aggregated && items.some((it) => it.kind === 'column'))
    throw bad('aggregate functions and plain fields cannot be mixed in one select list')
  const list = items.map((it) =>
    it.kind === 'func'
      ? { name: it.alias ?? `${it.func}(${it.arg})`, sql: aggregate(scope, it) }
      : { name: it.alias ?? it.name, sql: ref(scope, it.name) },
  )
  return { list, aggregated }
}

/** ORDER BY items refer to time, an output column or a BY tag; returns SQL over the inner query. */
export function orderSql(order: OrderItem[], outs: Output[], by: string[]): string {
  const items = order.length ? order : [{ column: TIME_COLUMN, desc: true }]
  return items
    .map((o) => {
      let target: string
      if (o.column === TIME_COLUMN) target = ident(TIME_COLUMN)
      else if (outs.some((x) => x.name === o.column))
        target = ident(`v${outs.findIndex((x) => x.name === o.column)}`)
      else if (by.includes(o.column)) target = ident(`b${by.indexOf(o.column)}`)
      else throw bad(`ORDER BY ${o.column}: order by time, a selected column or a BY tag`)
      return `${target} ${o.desc ? 'DESC' : 'ASC'} NULLS LAST`
    })
    .join(', ')
}
