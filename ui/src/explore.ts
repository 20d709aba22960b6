/**
 * Explore: a DQL editor with completion from the catalog, a time range (relative or absolute),
 * a chart or table of the answer, and the SQL it ran as on demand. A `QueryInvalid` answer is
 * shown under the query with a caret at the position it names, and the editor's cursor is put
 * there. Dragging over the chart narrows the range to the span dragged. The query, the range
 * and the chart type live in the URL hash, so a view can be reloaded or shared. Pickers above
 * the editor write a query from the catalog. An aggregate gets about 300 buckets over the
 * range unless the query sets its own interval.
 */
import { ApiError, dql } from './api.js'
import { withCompletion } from './autocomplete.js'
import { CHART_TYPES, drawChart, type ChartType } from './chart.js'
import { barPoints } from './chart-style.js'
import { fill, h, select } from './dom.js'
import { namespaceOf, withInterval } from './dql-text.js'
import { pickers } from './pickers.js'
import { rangeFromParams, rangeParams, resolveRange, spanOf } from './range.js'
import { rangePicker, type RangePicker } from './range-picker.js'

const DEFAULT = 'M::cpu:(avg(usage_total)) BY host'

function errorView(query: string, err: unknown): HTMLElement {
  if (!(err instanceof ApiError)) return h('p', { class: 'error' }, String(err))
  const pos = err.position
  const box = h(
    'div',
    { class: 'error', role: 'alert' },
    h('p', {}, `${err.errorCode}: ${err.message}`),
  )
  if (pos !== null) box.append(h('pre', { class: 'caret' }, `${query}\n${' '.repeat(pos)}^`))
  return box
}

/** Runs the editor's query and draws the answer, the SQL or the error. */
async function run(ui: ExploreUi): Promise<void> {
  const { editor, range, type, explain, out, sql, status } = ui
  const q = editor.value.trim()
  const view = range.value()
  const state = new URLSearchParams({ q, ...rangeParams(view), type: type.value })
  history.replaceState(null, '', `#/explore?${state}`)
  fill(status, 'Running…')
  sql.replaceChildren()
  try {
    const started = performance.now()
    const shown = resolveRange(view)
    const points = type.value === 'bar' ? barPoints(out.clientWidth || 900) : 300
    const r = await dql(
      withInterval(q, spanOf(view), points),
      { time_range: shown },
      explain.checked,
    )
    const zoom = (picked: [number, number]) => {
      range.set({ from: Math.round(picked[0]), to: Math.round(picked[1]) })
      void run(ui)
    }
    const opts = { ns: namespaceOf(q), dragOnly: true }
    drawChart(out, r.series, type.value as ChartType, shown, 260, zoom, opts)
    const ms = Math.round(performance.now() - started)
    const hint = r.series.length && type.value !== 'table' ? ' · drag over the chart to zoom' : ''
    fill(status, `${r.series.length} series in ${ms} ms${r.truncated ? ' (truncated)' : ''}${hint}`)
    if (r.raw_query) fill(sql, r.raw_query)
  } catch (e) {
    fill(status)
    fill(out, errorView(q, e))
    const pos = e instanceof ApiError ? e.position : null
    if (pos !== null) editor.setSelectionRange(pos, pos + 1)
  }
}

interface ExploreUi {
  editor: HTMLTextAreaElement
  range: RangePicker
  type: HTMLSelectElement
  explain: HTMLInputElement
  out: HTMLElement
  sql: HTMLElement
  status: HTMLElement
}

export function explorePage(main: HTMLElement, params: URLSearchParams): void {
  const ui: ExploreUi = {
    editor: h('textarea', { id: 'dql', rows: '3', spellcheck: 'false' }) as HTMLTextAreaElement,
    range: rangePicker(rangeFromParams(params), () => void run(ui)),
    type: select('type', CHART_TYPES, params.get('type') ?? 'line'),
    explain: h('input', { type: 'checkbox', id: 'explain' }) as HTMLInputElement,
    out: h('div', { id: 'result', class: 'chart' }),
    sql: h('pre', { id: 'sql', class: 'sql' }),
    status: h('p', { id: 'status', class: 'status' }),
  }
  ui.editor.value = params.get('q') ?? DEFAULT
  ui.editor.setAttribute('aria-label', 'DQL query (Ctrl+Enter runs it)')
  ui.type.addEventListener('change', () => void run(ui))
  const form = h(
    'form',
    { class: 'toolbar', onsubmit: (e) => (e.preventDefault(), void run(ui)) },
    ui.range.el,
    ui.type,
    h('label', {}, ui.explain, ' show SQL'),
    h('button', { type: 'submit', id: 'run' }, 'Run'),
  )
  const picks = h('div', {})
  const box = withCompletion(ui.editor, () => void run(ui))
  fill(main, h('h1', {}, 'Explore'), picks, box, form, ui.status, ui.out, ui.sql)
  void run(ui)
  const use = (q: string) => ((ui.editor.value = q), void run(ui))
  pickers(use).then(
    (el) => fill(picks, el),
    () => fill(picks),
  )
}
