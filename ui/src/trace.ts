/**
 * One trace: its spans as a waterfall, each row indented by its depth under its parent and its
 * bar placed by start and duration on the trace's own time axis (first start to last end).
 * A row opens a pane with the span's fields and the attributes and events its `message` carries
 * (OTLP/JSON, or a ddtrace span's meta and metrics); the header links to the logs that carry the same `trace_id`. A trace is read
 * whole up to SPAN_LIMIT spans; past that the page says it is cut.
 */
import { dql, quote, rowsOf, type Row } from './api.js'
import { cell } from './chart.js'
import { fill, formatTime, h } from './dom.js'
import { formatDuration, TRACES, waterfallOrder, type Placed } from './spans.js'

export const SPAN_LIMIT = 1000
const LOOKBACK_MS = 30 * 86_400_000

type JsonAttr = { key?: unknown; value?: Record<string, unknown> }

/** OTLP/JSON attributes as `key=value` text (the value's one typed member). */
export function attrText(list: unknown): string {
  if (!Array.isArray(list)) return ''
  return list
    .map((a: JsonAttr) => `${String(a?.key)}=${JSON.stringify(Object.values(a?.value ?? {})[0])}`)
    .join(' ')
}

/** A ddtrace span's meta and metrics (JSON objects) as `key=value` text. */
function entriesText(...maps: unknown[]): string {
  return maps
    .flatMap((m) =>
      typeof m === 'object' && m !== null && !Array.isArray(m)
        ? Object.entries(m).map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        : [],
    )
    .join(' ')
}

type Message = { attributes?: unknown; events?: unknown; meta?: unknown; metrics?: unknown }

function parseMessage(message: unknown): Message {
  try {
    const m: unknown = JSON.parse(String(message ?? ''))
    return typeof m === 'object' && m !== null ? (m as Message) : {}
  } catch {
    // Not JSON (a span written by hand, or `del_message`): nothing to unpack.
    return {}
  }
}

/** A span's `message` (OTLP/JSON, or ddtrace's): its other attributes and its events. */
export function spanMessage(message: unknown): { attrs: string; events: string[] } {
  const m = parseMessage(message)
  const events: { name?: unknown; attributes?: unknown }[] = Array.isArray(m.events) ? m.events : []
  return {
    attrs: [attrText(m.attributes), entriesText(m.meta, m.metrics)].filter((t) => t).join(' '),
    events: events.map((e) => `${String(e?.name ?? '')} ${attrText(e?.attributes)}`.trim()),
  }
}

function detail(pane: HTMLElement, span: Row): void {
  const fields = Object.entries(span).filter(([k, v]) => v !== null && k !== 'message')
  const { attrs, events } = spanMessage(span.message)
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
    attrs ? h('h3', {}, 'Attributes') : null,
    attrs ? h('p', { id: 'span-attrs' }, h('code', {}, attrs)) : null,
    h('h3', {}, `Events (${events.length})`),
    h('ul', { id: 'span-events' }, ...events.map((e) => h('li', {}, h('code', {}, e)))),
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
