/**
 * Explore: a DQL editor, a time range, a chart or table of the answer, and the SQL it ran as
 * on demand. A `QueryInvalid` answer is shown under the query with a caret at the position it
 * names, and the editor's cursor is put there. The query and choices live in the URL hash, so
 * a view can be reloaded or shared.
 */
import { ApiError, dql } from './api.js'
import { drawChart, type ChartType } from './chart.js'
import { fill, h, select } from './dom.js'
import { interval, RANGES, timeRange } from './time.js'

const DEFAULT = 'M::cpu:(avg(usage_total)) BY host'

/** A query's time clause: `[start:end:interval]` is added when the query has none. */
export function withInterval(query: string, range: string): string {
  if (/\[[^\]]*\]/.test(query) || !/\(\s*(avg|min|max|sum|count|last|first)\(/i.test(query))
    return query
  const by = /\s(BY|ORDER BY|LIMIT|SLIMIT)\s/i.exec(query)
  const at = by ? by.index : query.length
  return `${query.slice(0, at)} [::${interval(range)}]${query.slice(at)}`
}

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

export function explorePage(main: HTMLElement, params: URLSearchParams): void {
  const editor = h('textarea', { id: 'dql', rows: '3', spellcheck: 'false' }) as HTMLTextAreaElement
  editor.value = params.get('q') ?? DEFAULT
  const range = select('range', RANGES, params.get('range') ?? '1h')
  const type = select(
    'type',
    [
      ['line', 'lines'],
      ['bar', 'bars'],
      ['table', 'table'],
    ],
    params.get('type') ?? 'line',
  )
  const explain = h('input', { type: 'checkbox', id: 'explain' }) as HTMLInputElement
  const out = h('div', { id: 'result', class: 'chart' })
  const sql = h('pre', { id: 'sql', class: 'sql' })
  const status = h('p', { id: 'status', class: 'status' })
  const run = async () => {
    const q = editor.value.trim()
    history.replaceState(
      null,
      '',
      `#/explore?${new URLSearchParams({ q, range: range.value, type: type.value })}`,
    )
    fill(status, 'Running…')
    sql.replaceChildren()
    try {
      const started = performance.now()
      const shown = timeRange(range.value)
      const r = await dql(withInterval(q, range.value), { time_range: shown }, explain.checked)
      drawChart(out, r.series, type.value as ChartType, shown)
      const ms = Math.round(performance.now() - started)
      fill(status, `${r.series.length} series in ${ms} ms${r.truncated ? ' (truncated)' : ''}`)
      if (r.raw_query) fill(sql, r.raw_query)
    } catch (e) {
      fill(status)
      fill(out, errorView(q, e))
      const pos = e instanceof ApiError ? e.position : null
      if (pos !== null) editor.setSelectionRange(pos, pos + 1)
    }
  }
  editor.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void run()
  })
  const form = h(
    'form',
    { class: 'toolbar', onsubmit: (e) => (e.preventDefault(), void run()) },
    range,
    type,
    h('label', {}, explain, ' show SQL'),
    h('button', { type: 'submit', id: 'run' }, 'Run'),
  )
  fill(main, h('h1', {}, 'Explore'), editor, form, status, out, sql)
  void run()
}
