/**
 * One trace: its spans as a waterfall, each row indented by its depth under its parent and its
 * bar placed by start and duration on the trace's own time axis (first start to last end).
 * A row opens a pane with the span's fields and the events and links its `message` carries
 * (OTLP/JSON); the header links to the logs that carry the same `trace_id`. A trace is read
 * whole up to SPAN_LIMIT spans; past that the page says it is cut.
 */
import { dql, quote, rowsOf, type Row } from './api.js'
import { cell } from './chart.js'
import { fill, formatTime, h } from './dom.js'
import { formatDuration, TRACES, waterfallOrder, type Placed } from './spans.js'

export const SPAN_LIMIT = 1000
const LOOKBACK_MS = 30 * 86_400_000

/** The events of a span's `message` (OTLP/JSON), or none when it holds no valid JSON. */
export function spanEvents(message: unknown): { name: string; attrs: string }[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(String(message ?? ''))
  } catch {
    return []
  }
  const events = (parsed as { events?: unknown })?.events
  if (!Array.isArray(events)) return []
  return events.map((e: { name?: unknown; attributes?: unknown }) => ({
    name: String(e?.name ?? ''),
    attrs: JSON.stringify(e?.attributes ?? []),
  }))
}

function detail(pane: HTMLElement, span: Row): void {
  const fields = Object.entries(span).filter(([k, v]) => v !== null && k !== 'message')
  const events = spanEvents(span.message)
  fill(
    pane,
    h('h2', {}, cell(span.resource)),
    h(
      'table',
      { class: 'fields', id: 'span-fields' },
      ...fields.map(([k, v]) =>
        h('tr', {}, h('th', {}, k), h('td', {}, k === 'time' ? formatTime(Number(v)) : cell(v))),
      ),
    ),
    h('h3', {}, `Events (${events.length})`),
    h(
      'ul',
      { id: 'span-events' },
      ...events.map((e) => h('li', {}, e.name, ' ', h('code', {}, e.attrs))),
    ),
    span.message
      ? h('details', {}, h('summary', {}, 'message'), h('pre', {}, cell(span.message)))
      : null,
  )
}

function spanRow(p: Placed, t0: number, total: number, pane: HTMLElement): HTMLElement {
  const start = Number(p.span.start)
  const dur = Number(p.span.duration)
  const left = total ? ((start - t0) / total) * 100 : 0
  const width = total ? Math.max((dur / total) * 100, 0.3) : 100
  const bar = h('div', {
    class: `bar st-${cell(p.span.status)}`,
    style: `left:${left.toFixed(3)}%;width:${Math.min(width, 100 - left).toFixed(3)}%`,
  })
  return h(
    'tr',
    {
      'data-depth': String(p.depth),
      'data-span': cell(p.span.span_id),
      onclick: () => detail(pane, p.span),
    },
    h(
      'td',
      { class: 'span-name', style: `padding-left:${0.4 + p.depth * 1.2}em` },
      h('strong', {}, cell(p.span.service)),
      ' ',
      cell(p.span.resource),
    ),
    h('td', { class: 'num' }, formatDuration(dur)),
    h('td', { class: 'lane' }, bar),
  )
}

export async function tracePage(main: HTMLElement, traceId: string): Promise<void> {
  fill(main, h('h1', {}, 'Trace'), h('p', { class: 'status' }, 'Loading…'))
  const r = await dql(`${TRACES} {trace_id = ${quote(traceId)}}`, {
    limit: SPAN_LIMIT,
    disable_slimit: true,
    // A trace id is unique: look back far enough for any trace a link can name.
    time_range: [Date.now() - LOOKBACK_MS, Date.now() + 60_000],
  })
  const spans = rowsOf(r.series)
  const logs = h(
    'a',
    { id: 'trace-logs', href: `#/logs?${new URLSearchParams({ trace_id: traceId })}` },
    'Logs of this trace',
  )
  if (!spans.length) {
    fill(
      main,
      h('h1', {}, 'Trace'),
      h('p', { class: 'empty' }, `No span of trace ${traceId}.`),
      logs,
    )
    return
  }
  const t0 = Math.min(...spans.map((s) => Number(s.start)))
  const end = Math.max(...spans.map((s) => Number(s.start) + Number(s.duration)))
  const placed = waterfallOrder(spans)
  const pane = h('aside', { id: 'span-detail', class: 'detail' }, 'Select a span.')
  const cut = spans.length >= SPAN_LIMIT ? ` (first ${SPAN_LIMIT} spans only)` : ''
  const facts = `${spans.length} spans${cut} · ${formatDuration(end - t0)} · started ${formatTime(t0 / 1000)}`
  const head = h('tr', {}, h('th', {}, 'span'), h('th', {}, 'duration'), h('th', {}, 'timeline'))
  const table = h(
    'table',
    { class: 'rows waterfall', id: 'waterfall' },
    h('thead', {}, head),
    h('tbody', {}, ...placed.map((p) => spanRow(p, t0, end - t0, pane))),
  )
  fill(
    main,
    h('h1', {}, `Trace ${traceId}`),
    h('p', { class: 'facts' }, facts, ' · ', logs),
    h('div', { class: 'split' }, h('div', {}, table), pane),
  )
}
