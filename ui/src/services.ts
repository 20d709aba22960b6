/**
 * Services: for each service that wrote spans in the range, its span rate (spans per second
 * over the whole range), its error rate (the share of spans with status `error`) and latency
 * percentiles p50, p95 and p99 of the span durations. Each name opens the trace list filtered
 * to it.
 */
import { dql, rowsOf, type Row } from './api.js'
import { cell } from './chart.js'
import { fill, h, row, select } from './dom.js'
import { formatDuration, TRACES } from './spans.js'
import { rangeMs, RANGES, timeRange } from './time.js'

export const SERVICE_QUERY =
  `${TRACES}:(count(span_id) AS spans, percentile(duration, 50) AS p50, ` +
  'percentile(duration, 95) AS p95, percentile(duration, 99) AS p99) BY service'
export const ERROR_QUERY = `${TRACES}:(count(span_id) AS errors) {status = 'error'} BY service`

/** Rows of a BY query keyed by their group's tag. */
function byService(series: { tags?: Record<string, string | null> }[], rows: Row[][]) {
  const out = new Map<string, Row>()
  series.forEach((s, i) => out.set(s.tags?.service ?? '', rows[i][0] ?? {}))
  return out
}

function serviceRow(name: string, r: Row, errors: number, secs: number, range: string) {
  const spans = Number(r.spans ?? 0)
  const q = new URLSearchParams({ service: name, range })
  return row([
    h('a', { href: `#/traces?${q}` }, name),
    `${(spans / secs).toFixed(3)} /s`,
    `${spans ? ((errors / spans) * 100).toFixed(1) : '0.0'} %`,
    formatDuration(Number(r.p50)),
    formatDuration(Number(r.p95)),
    formatDuration(Number(r.p99)),
    cell(spans),
  ])
}

export async function servicesPage(main: HTMLElement, params: URLSearchParams): Promise<void> {
  const range = select('range', RANGES, params.get('range') ?? '1h')
  range.addEventListener('change', () => location.assign(`#/services?range=${range.value}`))
  const status = h('p', { class: 'status' }, 'Loading…')
  fill(main, h('h1', {}, 'Services'), h('div', { class: 'toolbar' }, range), status)
  const opts = { time_range: timeRange(range.value), disable_slimit: true }
  const [all, bad] = await Promise.all([dql(SERVICE_QUERY, opts), dql(ERROR_QUERY, opts)])
  const stats = byService(
    all.series,
    all.series.map((s) => rowsOf([s])),
  )
  const errors = byService(
    bad.series,
    bad.series.map((s) => rowsOf([s])),
  )
  if (!stats.size) return void fill(status, 'No service wrote spans in this range.')
  const secs = rangeMs(range.value) / 1000
  const head = ['service', 'span rate', 'error rate', 'p50', 'p95', 'p99', 'spans']
  const names = [...stats.keys()].sort()
  status.remove()
  main.append(
    h(
      'table',
      { class: 'rows', id: 'services' },
      row(head, true),
      ...names.map((n) =>
        serviceRow(n, stats.get(n)!, Number(errors.get(n)?.errors ?? 0), secs, range.value),
      ),
    ),
  )
}
