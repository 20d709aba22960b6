/**
 * Logs: the rows of one log source, newest first, filtered by status, service and a text match
 * on the message. Pages follow each other by the `search_after` cursor the previous page
 * returned, over a time range fixed when the filters were applied, so no row is lost or shown
 * twice even when many share a millisecond or new rows arrive meanwhile. A row opens a pane
 * with all of its fields.
 */
import { call, dql, type Series } from './api.js'
import { cell } from './chart.js'
import { fill, formatTime, h, select } from './dom.js'
import { RANGES, timeRange } from './time.js'

export const PAGE_SIZE = 50

const quote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`

/** The DQL for the filters; empty filters are left out. */
export function logQuery(source: string, f: { status: string; service: string; text: string }) {
  const where: string[] = []
  if (f.status) where.push(`status = ${quote(f.status)}`)
  if (f.service) where.push(`service = ${quote(f.service)}`)
  if (f.text) where.push(`message = match(${quote(f.text)})`)
  const name = /^[A-Za-z_][A-Za-z0-9_]*$/.test(source) ? source : `\`${source.replace(/`/g, '')}\``
  return `L::${name}${where.length ? ` {${where.join(', ')}}` : ''}`
}

type Row = Record<string, unknown>

function rowsOf(series: Series[]): Row[] {
  return series.flatMap((s) =>
    s.values.map((v) => Object.fromEntries(s.columns.map((c, i) => [c, v[i]]))),
  )
}

function detail(pane: HTMLElement, row: Row): void {
  const fields = Object.entries(row).filter(([, v]) => v !== null && v !== undefined)
  fill(
    pane,
    h('h2', {}, 'Log detail'),
    h(
      'table',
      { class: 'fields' },
      ...fields.map(([k, v]) =>
        h('tr', {}, h('th', {}, k), h('td', {}, k === 'time' ? formatTime(Number(v)) : cell(v))),
      ),
    ),
  )
}

export async function logsPage(main: HTMLElement, params: URLSearchParams): Promise<void> {
  const sources = (await call<Record<string, string[]>>('sources'))['L'] ?? []
  const source = select(
    'source',
    sources.map((s) => [s, s]),
    params.get('source') ?? sources[0] ?? '',
  )
  const input = (name: string) =>
    h('input', { name, placeholder: name, value: params.get(name) ?? '' }) as HTMLInputElement
  const [status, service, text] = [input('status'), input('service'), input('text')]
  const range = select('range', RANGES, params.get('range') ?? '24h')
  const body = h('tbody', { id: 'log-rows' })
  const pane = h('aside', { id: 'log-detail', class: 'detail' }, 'Select a row.')
  const more = h('button', { id: 'more', type: 'button' }, 'Older') as HTMLButtonElement
  const count = h('span', { id: 'log-count', class: 'status' })
  let cursor: unknown[] = []
  let fixed: [number, number] = [0, 0]
  let shown = 0
  const page = async () => {
    more.disabled = true
    const q = logQuery(source.value, {
      status: status.value,
      service: service.value,
      text: text.value,
    })
    const r = await dql(q, { time_range: fixed, limit: PAGE_SIZE, search_after: cursor })
    const rows = rowsOf(r.series)
    for (const row of rows)
      body.append(
        h(
          'tr',
          { onclick: () => detail(pane, row) },
          h('td', {}, formatTime(Number(row.time))),
          h('td', { class: `st-${cell(row.status)}` }, cell(row.status)),
          h('td', {}, cell(row.service)),
          h('td', { class: 'msg' }, cell(row.message)),
        ),
      )
    shown += rows.length
    cursor = r.search_after ?? []
    more.disabled = rows.length < PAGE_SIZE || !cursor.length
    fill(count, `${shown} rows${more.disabled ? ', no more' : ''}`)
  }
  const apply = () => {
    const p = {
      source: source.value,
      status: status.value,
      service: service.value,
      text: text.value,
      range: range.value,
    }
    history.replaceState(null, '', `#/logs?${new URLSearchParams(p)}`)
    cursor = []
    fixed = timeRange(range.value)
    shown = 0
    body.replaceChildren()
    return page()
  }
  more.addEventListener('click', () => void page())
  const form = h(
    'form',
    { class: 'toolbar', onsubmit: (e) => (e.preventDefault(), void apply()) },
    source,
    status,
    service,
    text,
    range,
    h('button', { type: 'submit' }, 'Apply'),
  )
  const head = h('tr', {}, ...['time', 'status', 'service', 'message'].map((t) => h('th', {}, t)))
  fill(
    main,
    h('h1', {}, 'Logs'),
    form,
    h(
      'div',
      { class: 'split' },
      h(
        'div',
        {},
        h('table', { class: 'rows' }, h('thead', {}, head), body),
        h('p', {}, more, ' ', count),
      ),
      pane,
    ),
  )
  if (sources.length) await apply()
  else fill(count, 'No logs stored yet.')
}
