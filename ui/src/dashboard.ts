/**
 * One dashboard: its template variables as pickers (the values are the last column of each
 * variable's DQL answer; `#{name}` in a chart's DQL is replaced by the chosen value) and its
 * charts in a grid over one time range. In edit mode charts and variables are added and
 * removed, and Save writes them back through the Open API; the charts and variables of the
 * dashboard's documented template are drawn after the studio's own (template.ts).
 */
import { ApiError, call, dql } from './api.js'
import { CHART_TYPES, drawChart, type ChartType } from './chart.js'
import type { ChartSpec, Dashboard, Variable } from './dashboards.js'
import { fill, h, select } from './dom.js'
import { withInterval } from './dql-text.js'
import { templateCharts, templateVariables } from './template.js'
import { RANGES, timeRange } from './time.js'

/** `#{name}` replaced by the variable's value (unknown names are left as written). */
export function substitute(query: string, values: Record<string, string>): string {
  return query.replace(/#\{(\w+)\}/g, (m, name: string) => values[name] ?? m)
}

async function variableValues(v: Variable): Promise<string[]> {
  const r = await dql(v.dql, { time_range: timeRange('24h') }).catch(() => null)
  const set = new Set<string>()
  for (const s of r?.series ?? []) for (const row of s.values) set.add(String(row[row.length - 1]))
  return [...set].sort()
}

const submit = (id: string, onsubmit: (e: Event) => void, ...fields: HTMLElement[]) =>
  h('form', { id, class: 'toolbar', onsubmit }, ...fields)

function editor(d: Dashboard, save: () => Promise<void>): HTMLElement {
  const input = (name: string, placeholder: string, wide = false) =>
    h('input', { name, placeholder, class: wide ? 'wide' : undefined }) as HTMLInputElement
  const [title, query] = [input('title', 'chart title'), input('dql', 'DQL', true)]
  const type = select('chart-type', CHART_TYPES, 'line')
  const [vName, vQuery] = [
    input('var-name', 'variable (host)'),
    input('var-dql', 'values DQL (O::HOST:(name))', true),
  ]
  const addChart = (e: Event) => {
    e.preventDefault()
    const chart = { title: title.value, dql: query.value, type: type.value as ChartType }
    ;(d.extend.charts ??= []).push(chart)
    void save()
  }
  const addVar = (e: Event) => {
    e.preventDefault()
    ;(d.extend.variables ??= []).push({ name: vName.value, dql: vQuery.value })
    void save()
  }
  const button = (text: string) => h('button', { type: 'submit' }, text)
  return h(
    'div',
    { class: 'editor' },
    submit('add-chart', addChart, title, query, type, button('Add chart')),
    submit('add-variable', addVar, vName, vQuery, button('Add variable')),
  )
}

function panel(spec: ChartSpec, onRemove: (() => void) | null): HTMLElement {
  const remove = onRemove
    ? h('button', { class: 'danger', title: 'remove', onclick: onRemove }, '×')
    : null
  return h(
    'section',
    { class: 'panel' },
    h('h3', {}, spec.title, remove),
    h('div', { class: 'chart' }),
  )
}

/** Runs one chart's query (variables substituted) and draws it, or its error, into `el`. */
async function drawPanel(
  el: HTMLElement,
  c: ChartSpec,
  vars: Record<string, string>,
  range: string,
) {
  const shown = timeRange(range)
  try {
    const r = await dql(withInterval(substitute(c.dql, vars), range), { time_range: shown })
    drawChart(el, r.series, c.type, shown, 200)
  } catch (e) {
    const text = e instanceof ApiError ? `${e.errorCode}: ${e.message}` : String(e)
    fill(el, h('p', { class: 'error' }, text))
  }
}

function pickers(vars: Variable[], params: URLSearchParams): Promise<HTMLSelectElement[]> {
  return Promise.all(
    vars.map(async (v) => {
      const values = (await variableValues(v)).map((x): [string, string] => [x, x])
      // The value in the URL if it is still offered, else the first: never an empty picker.
      const asked = params.get(`var-${v.name}`)
      const chosen = values.some(([x]) => x === asked) ? asked! : (values[0]?.[0] ?? '')
      return select(`var-${v.name}`, values, chosen)
    }),
  )
}

function title(d: Dashboard, edit: boolean, base: string): HTMLElement {
  const href = edit ? base : `${base}?edit=1`
  const toggle = h('a', { href, class: 'small', id: 'edit-toggle' }, edit ? 'done' : 'edit')
  return h('h1', {}, d.name, ' ', toggle)
}

export async function dashboardPage(main: HTMLElement, id: string, params: URLSearchParams) {
  const path = `v1/dashboard/${encodeURIComponent(id)}`
  const d = await call<Dashboard>(`${path}/get`)
  d.extend ??= {}
  const edit = params.get('edit') === '1'
  const save = async () => {
    await call(`${path}/modify`, { extend: d.extend })
    await dashboardPage(main, id, params)
  }
  const range = select('range', RANGES, params.get('range') ?? '1h')
  const vars = [...(d.extend.variables ?? []), ...templateVariables(d.templateInfo ?? {})]
  const picks = await pickers(vars, params)
  const grid = h('div', { class: 'grid', id: 'dashboard-grid' })
  const own = (d.extend.charts ??= [])
  const charts = [...own, ...templateCharts(d.templateInfo ?? {})]
  const draw = () => {
    const values = Object.fromEntries(vars.map((v, i) => [v.name, picks[i].value]))
    const remove = (i: number) => () => (own.splice(i, 1), void save())
    const removable = (i: number) => (edit && i < own.length ? remove(i) : null)
    grid.replaceChildren(...charts.map((c, i) => panel(c, removable(i))))
    charts.forEach(
      (c, i) => void drawPanel(grid.children[i].querySelector('.chart')!, c, values, range.value),
    )
  }
  for (const p of [range, ...picks]) p.addEventListener('change', draw)
  const labels = vars.map((v, i) => h('label', {}, `${v.name} `, picks[i]))
  fill(
    main,
    title(d, edit, `#/dashboard/${encodeURIComponent(id)}`),
    h('div', { class: 'toolbar' }, range, ...labels),
    edit ? editor(d, save) : null,
    charts.length ? grid : h('p', { class: 'empty' }, 'No charts yet: edit to add one.'),
  )
  draw()
}
