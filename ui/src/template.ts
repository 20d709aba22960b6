/**
 * Charts and variables of a dashboard template (`templateInfo`, as the Open API documents it:
 * `main.charts[]` with a name, a type and DQL queries, `main.vars[]` with a code and a query)
 * in the studio's own form, so a dashboard made by another client (Terraform, an import) is
 * drawn too. What the studio cannot draw is skipped: a chart without a DQL query, a variable
 * without one. Such charts are shown, not edited: the studio edits its own (`extend`).
 */
import type { ChartType } from './chart.js'
import type { ChartSpec, Variable } from './dashboard-model.js'

type Json = Record<string, unknown>

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : [])

function chartType(t: unknown): ChartType {
  if (t === 'bar' || t === 'toplist') return 'bar'
  return t === 'table' ? 'table' : 'line'
}

export function templateCharts(t: Json): ChartSpec[] {
  const main = isObject(t.main) ? t.main : {}
  return list(main.charts).flatMap((c) => {
    const q = list(c.queries).map((x) => (isObject(x.query) ? x.query.q : undefined))[0]
    if (typeof q !== 'string' || !q) return []
    return [{ title: String(c.name ?? ''), dql: q, type: chartType(c.type) }]
  })
}

export function templateVariables(t: Json): Variable[] {
  const main = isObject(t.main) ? t.main : {}
  // Dashboards saved by earlier studios kept their variables at the top of the template.
  const legacy = list(t.variables).filter((v) => typeof v.name === 'string')
  const vars = list(main.vars).flatMap((v) => {
    const name = v.code ?? v.name
    const dql = isObject(v.definition) ? v.definition.value : undefined
    return typeof name === 'string' && typeof dql === 'string' && dql ? [{ name, dql }] : []
  })
  return [...(legacy as unknown as Variable[]), ...vars]
}
