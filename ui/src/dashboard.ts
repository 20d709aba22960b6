/**
 * One dashboard: its template variables as pickers (the values are the last column of each
 * variable's DQL answer, the first preselected, so a `host` variable draws the first host at
 * once; `#{name}` in a chart's DQL is replaced by the chosen value) and its charts in a grid
 * over one time range (relative or absolute; a drag over a chart narrows it). The range and
 * the variables' values live in the URL. Edit mode (dashboard-edit.ts) renames, adds, edits,
 * moves and removes; the charts and variables of the dashboard's documented template are drawn
 * after the studio's own (template.ts) and are not edited here.
 */
import { call, dql } from './api.js'
import type { Dashboard, Variable } from './dashboard-model.js'
import { addForms, chartEdits, renameForm, saving } from './dashboard-edit.js'
import { drawPanel, panel } from './dashboard-panel.js'
import { fill, h, select } from './dom.js'
import { rangeFromParams, rangeParams } from './range.js'
import { rangePicker, type RangePicker } from './range-picker.js'
import { templateCharts, templateVariables } from './template.js'
import { timeRange } from './time.js'

export { substitute } from './dashboard-panel.js'

async function variableValues(v: Variable): Promise<string[]> {
  const r = await dql(v.dql, { time_range: timeRange('24h') }).catch(() => null)
  const set = new Set<string>()
  for (const s of r?.series ?? []) for (const row of s.values) set.add(String(row[row.length - 1]))
  return [...set].sort()
}

function pickers(vars: Variable[], params: URLSearchParams): Promise<HTMLSelectElement[]> {
  return Promise.all(
    vars.map(async (v) => {
      const values = (await variableValues(v)).map((x): [string, string] => [x, x])
      // The value in the URL if it is still offered, else the first: never an empty picker.
      const asked = params.get(`var-${v.name}`)
      const chosen = values.some(([x]) => x === asked) ? asked! : (values[0]?.[0] ?? '')
      const s = select(`var-${v.name}`, values.length ? values : [['', '(no values)']], chosen)
      s.disabled = !values.length
      return s
    }),
  )
}

/** A variable's picker with its name, and × to remove it when it is the studio's own. */
function variableLabel(v: Variable, pick: HTMLSelectElement, remove: (() => void) | null) {
  const x = remove
    ? h('button', {
        type: 'button',
        class: 'danger small-button',
        title: `remove variable ${v.name}`,
        'aria-label': `remove variable ${v.name}`,
        onclick: remove,
      })
    : null
  if (x) x.textContent = '×'
  return h('label', { class: 'variable' }, `${v.name} `, pick, x)
}

function heading(d: Dashboard, edit: boolean, base: string, state: () => string): HTMLElement {
  const href = `${base}?${state()}`
  const toggle = h('a', { class: 'small', id: 'edit-toggle', href }, edit ? 'done' : 'edit')
  // The link carries the view along, so leaving or entering edit mode keeps range and values.
  toggle.addEventListener('click', () => toggle.setAttribute('href', `${base}?${state()}`))
  return h('h1', {}, d.name, ' ', toggle)
}

/** The view's URL parameters: edit mode, the range and each variable's value. */
function viewParams(
  vars: Variable[],
  picks: HTMLSelectElement[],
  range: RangePicker,
  edit: boolean,
) {
  return new URLSearchParams([
    ...(edit ? [['edit', '1']] : []),
    ...Object.entries(rangeParams(range.value())),
    ...vars.map((v, i) => [`var-${v.name}`, picks[i].value]),
  ])
}

const noCharts = (edit: boolean) =>
  h(
    'p',
    { class: 'empty' },
    edit ? 'No charts yet: add one above.' : 'No charts yet: edit to add one.',
  )

export async function dashboardPage(main: HTMLElement, id: string, params: URLSearchParams) {
  const path = `v1/dashboard/${encodeURIComponent(id)}`
  const base = `#/dashboard/${encodeURIComponent(id)}`
  const d = await call<Dashboard>(`${path}/get`)
  d.extend ??= {}
  const edit = params.get('edit') === '1'
  const [own, ownVars] = [(d.extend.charts ??= []), (d.extend.variables ??= [])]
  const vars = [...ownVars, ...templateVariables(d.templateInfo ?? {})]
  const charts = [...own, ...templateCharts(d.templateInfo ?? {})]
  const picks = await pickers(vars, params)
  const range = rangePicker(rangeFromParams(params), () => draw())
  const state = (editing: boolean) => viewParams(vars, picks, range, editing)
  const status = h('p', { class: 'status', id: 'dashboard-status' })
  const save = saving(async (change) => {
    await call(`${path}/modify`, change ?? { extend: d.extend })
    await dashboardPage(main, id, state(edit))
  }, status)
  const grid = h('div', { class: 'grid', id: 'dashboard-grid' })
  const draw = () => {
    history.replaceState(null, '', `${base}?${state(edit)}`)
    const values = Object.fromEntries(vars.map((v, i) => [v.name, picks[i].value]))
    const zoom = (p: [number, number]) => (
      range.set({ from: Math.round(p[0]), to: Math.round(p[1]) }),
      draw()
    )
    const view = { vars: values, range: range.value(), zoom }
    const edits = (i: number) => (edit && i < own.length ? chartEdits(d, i, grid, save) : null)
    grid.replaceChildren(...charts.map((c, i) => panel(c, i, edits(i))))
    charts.forEach((c, i) => void drawPanel(grid.children[i].querySelector('.chart')!, c, view))
  }
  for (const p of picks) p.addEventListener('change', draw)
  const removeVar = (i: number) => () => (ownVars.splice(i, 1), void save())
  const labels = vars.map((v, i) =>
    variableLabel(v, picks[i], edit && i < ownVars.length ? removeVar(i) : null),
  )
  fill(
    main,
    heading(d, edit, base, () => state(!edit).toString()),
    edit ? renameForm(d, save) : null,
    h('div', { class: 'toolbar', id: 'dashboard-toolbar' }, range.el, ...labels),
    status,
    edit ? addForms(d, save) : null,
    charts.length ? grid : noCharts(edit),
  )
  draw()
}
