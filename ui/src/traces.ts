/**
 * Traces: the newest root spans (no parent) of the range, one row per trace, with service,
 * operation, duration and status, filtered by service, status, a minimum duration (ms) and a
 * trace id. The filters live in the URL, so a filtered list can be shared or reloaded; each
 * row opens the trace's waterfall.
 */
import { dql, quote, rowsOf, type Row } from './api.js'
import { cell } from './chart.js'
import { append, fill, formatTime, h, select } from './dom.js'
import { formatDuration, TRACES } from './spans.js'
import { RANGES, timeRange } from './time.js'

export const TRACE_LIMIT = 100

export interface TraceFilters {
  service: string
  status: string
  min_ms: string
  trace_id: string
}

/** The DQL of the list: root spans only, empty filters left out. */
export function traceListQuery(f: TraceFilters): string {
  const where = [`parent_id = '0'`]
  if (f.service) where.push(`service = ${quote(f.service)}`)
  if (f.status) where.push(`status = ${quote(f.status)}`)
  const min = Number(f.min_ms)
  if (f.min_ms && Number.isFinite(min)) where.push(`duration >= ${Math.round(min * 1000)}`)
  if (f.trace_id) where.push(`trace_id = ${quote(f.trace_id.trim())}`)
  const cols = 'trace_id, service, operation, resource, duration, status'
  return `${TRACES}:(${cols}) {${where.join(', ')}}`
}

function traceRow(r: Row): HTMLElement {
  const tid = cell(r.trace_id)
  return h(
    'tr',
    {},
    h('td', {}, formatTime(Number(r.time))),
    h('td', {}, cell(r.service)),
    h('td', {}, h('a', { href: `#/trace/${encodeURIComponent(tid)}` }, cell(r.resource))),
    h('td', { class: 'num' }, formatDuration(Number(r.duration))),
    h('td', { class: `st-${cell(r.status)}` }, cell(r.status)),
    h('td', { class: 'mono' }, tid),
  )
}

export async function tracesPage(main: HTMLElement, params: URLSearchParams): Promise<void> {
  const input = (name: string, placeholder: string) =>
    h('input', {
      name,
      placeholder,
      title: placeholder,
      value: params.get(name) ?? '',
    }) as HTMLInputElement
  const inputs = {
    service: input('service', 'service'),
    status: input('status', 'status (ok, error)'),
    min_ms: input('min_ms', 'min duration (ms)'),
    trace_id: input('trace_id', 'trace id'),
  }
  const range = select('range', RANGES, params.get('range') ?? '1h')
  const go = (e: Event) => {
    e.preventDefault()
    const q = Object.entries(inputs).map(([k, el]): [string, string] => [k, el.value.trim()])
    location.assign(`#/traces?${new URLSearchParams([...q, ['range', range.value]])}`)
  }
  const form = h('form', { class: 'toolbar', onsubmit: go }, ...Object.values(inputs), range)
  append(form, h('button', { type: 'submit' }, 'Apply'))
  const count = h('p', { class: 'status', id: 'trace-count' }, 'Loading…')
  fill(main, h('h1', {}, 'Traces'), form, count)
  const f = Object.fromEntries(Object.entries(inputs).map(([k, el]) => [k, el.value]))
  const opts = { time_range: timeRange(range.value), limit: TRACE_LIMIT }
  const rows = rowsOf((await dql(traceListQuery(f as unknown as TraceFilters), opts)).series)
  const head = ['time', 'service', 'operation', 'duration', 'status', 'trace id']
  fill(
    count,
    rows.length
      ? `${rows.length} trace${rows.length > 1 ? 's' : ''}, newest first`
      : 'No trace matches.',
  )
  if (!rows.length) return
  const thead = h('thead', {}, h('tr', {}, ...head.map((t) => h('th', {}, t))))
  main.append(
    h('table', { class: 'rows', id: 'traces' }, thead, h('tbody', {}, ...rows.map(traceRow))),
  )
}
