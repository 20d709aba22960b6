/**
 * One dashboard: its template variables as pickers (the values are the last column of each
 * variable's DQL answer; `#{name}` in a chart's DQL is replaced by the chosen value) and its
 * charts in a grid over one time range. In edit mode charts and variables are added and
 * removed, and Save writes them back through the Open API.
 */
import { ApiError, call, dql } from './api.js'
import { drawChart, type ChartType } from './chart.js'
import type { ChartSpec, Dashboard, Variable } from './dashboards.js'
import { fill, h, select } from './dom.js'
import { withInterval } from './explore.js'
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

function editor(d: Dashboard, save: () => Promise<void>): HTMLElement {
  const title = h('input', {
    name: 'title',
    placeholder: 'chart title',
    required: true,
  }) as HTMLInputElement
  const query = h('input', {
    name: 'dql',
    placeholder: 'DQL',
    required: true,
    class: 'wide',
  }) as HTMLInputElement
  const type = select(
    'chart-type',
    [
      ['line', 'lines'],
      ['bar', 'bars'],
      ['table', 'table'],
    ],
    'line',
  )
  const vName = h('input', { name: 'var-name', placeholder: 'variable (host)' }) as HTMLInputElement
  const vQuery = h('input', {
    name: 'var-dql',
    placeholder: 'values DQL (O::HOST:(name))',
    class: 'wide',
  }) as HTMLInputElement
  const addChart = (e: Event) => {
    e.preventDefault()
    ;(d.extend.charts ??= []).push({
      title: title.value,
      dql: query.value,
      type: type.value as ChartType,
    })
    void save()
  }
  const addVar = (e: Event) => {
    e.preventDefault()
    ;(d.templateInfos.variables ??= []).push({ name: vName.value, dql: vQuery.value })
    void save()
  }
  return h(
    'div',
    { class: 'editor' },
    h(
      'form',
      { id: 'add-chart', class: 'toolbar', onsubmit: addChart },
      title,
      query,
      type,
      h('button', { type: 'submit' }, 'Add chart'),
    ),
    h(
      'form',
      { id: 'add-variable', class: 'toolbar', onsubmit: addVar },
      vName,
      vQuery,
      h('button', { type: 'submit' }, 'Add variable'),
    ),
  )
}

function panel(
  spec: ChartSpec,
  i: number,
  d: Dashboard,
  edit: boolean,
  save: () => Promise<void>,
): HTMLElement {
  const remove = () => (d.extend.charts!.splice(i, 1), void save())
  return h(
    'section',
    { class: 'panel' },
    h(
      'h3',
      {},
      spec.title,
      edit ? h('button', { class: 'danger', title: 'remove chart', onclick: remove }, '×') : null,
    ),
    h('div', { class: 'chart' }),
  )
}

export async function dashboardPage(main: HTMLElement, id: string, params: URLSearchParams) {
  const d = await call<Dashboard>(`v1/dashboard/${encodeURIComponent(id)}/get`)
  d.extend ??= {}
  d.templateInfos ??= {}
  const edit = params.get('edit') === '1'
  const base = `#/dashboard/${encodeURIComponent(id)}`
  const save = async () => {
    await call(`v1/dashboard/${encodeURIComponent(id)}/modify`, {
      extend: d.extend,
      templateInfos: d.templateInfos,
    })
    await dashboardPage(main, id, params)
  }
  const range = select('range', RANGES, params.get('range') ?? '1h')
  const vars = d.templateInfos.variables ?? []
  const pickers = await Promise.all(
    vars.map(async (v) =>
      select(
        `var-${v.name}`,
        (await variableValues(v)).map((x) => [x, x]),
        params.get(`var-${v.name}`) ?? '',
      ),
    ),
  )
  const grid = h('div', { class: 'grid', id: 'dashboard-grid' })
  const charts = d.extend.charts ?? []
  const draw = () => {
    const values = Object.fromEntries(vars.map((v, i) => [v.name, pickers[i].value]))
    grid.replaceChildren(...charts.map((c, i) => panel(c, i, d, edit, save)))
    const shown = timeRange(range.value)
    charts.forEach((c, i) => {
      const el = grid.children[i].querySelector('.chart') as HTMLElement
      dql(withInterval(substitute(c.dql, values), range.value), { time_range: shown })
        .then((r) => drawChart(el, r.series, c.type, shown, 200))
        .catch((e) =>
          fill(
            el,
            h(
              'p',
              { class: 'error' },
              e instanceof ApiError ? `${e.errorCode}: ${e.message}` : String(e),
            ),
          ),
        )
    })
  }
  for (const p of [range, ...pickers]) p.addEventListener('change', draw)
  fill(
    main,
    h(
      'h1',
      {},
      d.name,
      ' ',
      h(
        'a',
        { href: edit ? base : `${base}?edit=1`, class: 'small', id: 'edit-toggle' },
        edit ? 'done' : 'edit',
      ),
    ),
    h(
      'div',
      { class: 'toolbar' },
      range,
      ...vars.map((v, i) => h('label', {}, `${v.name} `, pickers[i])),
    ),
    edit ? editor(d, save) : null,
    charts.length ? grid : h('p', { class: 'empty' }, 'No charts yet: edit to add one.'),
  )
  draw()
}
