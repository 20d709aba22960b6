/**
 * RUM: for one application (`app_id`) over a range, the summary (views, errors, sessions, p75
 * web vitals) and top pages (`rum-vitals.ts`), page views over time by page, and the newest
 * errors; an error opens a pane with its stack as the browser sent it and, when the agent
 * resolved it through an uploaded source map, the mapped stack (`error_stack_source_base64`,
 * decoded here). Applications are the `app_id`s that sent views or errors in the range.
 */
import { dql, quote, rowsOf, type Row } from './api.js'
import { cell } from './chart.js'
import { append, fill, formatTime, h, select } from './dom.js'
import { summary, TOP_PAGES, topPages } from './rum-vitals.js'
import { bucketMs } from './dql-text.js'
import { drawStackedBars } from './stacked-bars.js'
import { RANGES, timeRange } from './time.js'

const PAGE_COLORS = ['#2563eb', '#16a34a', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#65a30d']
const colorOf = (_page: string, i: number) => PAGE_COLORS[i % PAGE_COLORS.length]

export const ERROR_ROWS = 50

/** The mapped stack of an error row, or null when none was resolved. */
export function mappedStack(row: Row): string | null {
  const b64 = row.error_stack_source_base64
  if (typeof b64 !== 'string' || !b64) return null
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))
  return new TextDecoder().decode(bytes)
}

async function apps(range: [number, number]): Promise<string[]> {
  const found = new Set<string>()
  for (const m of ['view', 'error']) {
    const r = await dql(`R::${m}:(count(*)) BY app_id`, { time_range: range })
    for (const s of r.series) if (s.tags?.app_id) found.add(String(s.tags.app_id))
  }
  return [...found].sort()
}

function errorPane(pane: HTMLElement, row: Row): void {
  const mapped = mappedStack(row)
  fill(
    pane,
    h('h2', {}, cell(row.error_message) || 'Error'),
    h('p', {}, `${formatTime(Number(row.time))} · ${cell(row.view_name)}`),
    h('h3', {}, 'Mapped stack'),
    h('pre', { id: 'mapped-stack' }, mapped ?? 'No source map resolved this stack.'),
    h('h3', {}, 'Stack as sent'),
    h('pre', { id: 'raw-stack' }, cell(row.error_stack)),
  )
}

function errorRow(row: Row, pane: HTMLElement): HTMLElement {
  const mapped = mappedStack(row) !== null
  return h(
    'tr',
    { onclick: () => errorPane(pane, row) },
    h('td', {}, formatTime(Number(row.time))),
    h('td', {}, cell(row.view_name)),
    h('td', { class: 'msg' }, cell(row.error_message)),
    h('td', {}, mapped ? 'mapped' : ''),
  )
}

async function drawApp(body: HTMLElement, app: string, range: string): Promise<void> {
  const span = timeRange(range)
  const where = `{app_id = ${quote(app)}}`
  const cards = h('div', { id: 'rum-summary', class: 'stats' })
  const chart = h('div', { id: 'rum-views', class: 'chart' })
  const pages = h('div', { id: 'rum-top-pages' })
  const pane = h('aside', { id: 'rum-detail', class: 'detail' }, 'Select an error.')
  const rows = h('tbody', { id: 'rum-errors' })
  const head = h('tr', {}, ...['time', 'page', 'message', 'stack'].map((t) => h('th', {}, t)))
  const errors = h('table', { class: 'rows' }, h('thead', {}, head), rows)
  const panel = (title: string, el: HTMLElement) =>
    h('section', { class: 'panel' }, h('h3', {}, title), el)
  fill(
    body,
    cards,
    h('div', { class: 'grid' }, panel('Page views', chart), panel('Top pages', pages)),
  )
  append(body, h('h2', {}, 'Errors'), h('div', { class: 'split' }, errors, pane))
  const b = bucketMs(span)
  // The busiest pages (by their busiest bucket), as many as the top pages table lists.
  const by = `BY view_name SORDER BY count(*) DESC SLIMIT ${TOP_PAGES}`
  const views = dql(`R::view:(count(*)) ${where} [::${b / 1000}s] ${by}`, {
    time_range: span,
  }).then((r) =>
    drawStackedBars(chart, r.series, {
      range: span,
      bucketMs: b,
      key: 'view_name',
      colorOf,
      height: 180,
    }),
  )
  const q = `R::error:(error_message, error_stack, error_stack_source_base64, view_name) ${where}`
  const list = dql(q, { time_range: span, limit: ERROR_ROWS }).then((r) => {
    for (const row of rowsOf(r.series)) rows.append(errorRow(row, pane))
    if (!rows.childElementCount)
      rows.append(
        h('tr', {}, h('td', { colspan: '4', class: 'empty' }, 'No errors in this range.')),
      )
  })
  await Promise.all([summary(cards, where, span), topPages(pages, where, span), views, list])
}

const NO_APPS =
  'No RUM application has sent views or errors in this range. Point a RUM SDK (web, Android, ' +
  'iOS) at this agent: it writes to /v1/write/rum, and each app_id appears here (docs/rum.md). ' +
  'A longer range may find older data.'

export async function rumPage(main: HTMLElement, params: URLSearchParams): Promise<void> {
  const range = select('range', RANGES, params.get('range') ?? '24h')
  const found = await apps(timeRange(range.value))
  const wanted = params.get('app') ?? ''
  const choices = found.map((a): [string, string] => [a, a])
  const app = select('app', choices, found.includes(wanted) ? wanted : (found[0] ?? ''))
  app.id = 'rum-app-select'
  range.id = 'rum-range'
  const body = h('div', { id: 'rum-app' })
  const url = () => `#/rum?${new URLSearchParams({ app: app.value, range: range.value })}`
  const show = () => (history.replaceState(null, '', url()), drawApp(body, app.value, range.value))
  const submit = (e: Event) => (e.preventDefault(), void show())
  const form = h('form', { class: 'toolbar', onsubmit: submit })
  const label = (text: string, el: HTMLElement) => h('label', { class: 'field' }, text, el)
  append(form, label('Application', app), label('Range', range))
  append(form, h('button', { type: 'submit' }, 'Refresh'))
  // Another app shows at once; another range lists the applications of that range again.
  app.addEventListener('change', () => void show())
  range.addEventListener('change', () => location.assign(url()))
  fill(main, h('h1', {}, 'RUM'), form, body)
  if (found.length) return show()
  app.disabled = true
  fill(app, h('option', { value: '' }, 'none in this range'))
  fill(body, h('p', { class: 'empty panel', id: 'rum-empty' }, NO_APPS))
}
