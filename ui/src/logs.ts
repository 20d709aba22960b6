/**
 * Logs: the rows of one log source, newest first, filtered by status, service and a text match
 * on the message. Pages follow each other by the `search_after` cursor the previous page
 * returned, over a time range fixed when the filters were applied, so no row is lost or shown
 * twice even when many share a millisecond or new rows arrive meanwhile. A row opens a pane
 * with all of its fields. Above the rows a histogram counts them per status over the range;
 * a drag or a click on it narrows the list to that span. Live tail applies the filters again
 * every 5 s, so the newest rows come in on top. Beside the rows the source's fields list their
 * top values (`log-fields.ts`); a value clicked becomes a `field = value` filter, shown as a
 * chip that removes it, and kept in the URL (`f=field:value`) with the other filters.
 */
import { call, dql, rowsOf } from './api.js'
import { logQuery } from './dql-text.js'
import { append, fill, h, select } from './dom.js'
import { fieldList, type FieldContext } from './log-fields.js'
import { drawHistogram } from './log-histogram.js'
import { logRow } from './log-rows.js'
import { RANGES, timeRange } from './time.js'

export const PAGE_SIZE = 50

/** The page's state: the filters, the rows shown so far and the cursor of the next page. */
class LogStream {
  readonly body = h('tbody', { id: 'log-rows' })
  readonly pane = h('aside', { id: 'log-detail', class: 'detail' }, 'Select a row.')
  readonly more = h('button', { id: 'more', type: 'button' }, 'Older') as HTMLButtonElement
  readonly count = h('span', { id: 'log-count', class: 'status' })
  readonly hist = h('div', { id: 'log-histogram', class: 'chart' })
  readonly chips = h('span', { id: 'field-filters', class: 'labels' })
  /** `field = value` filters picked from the field list, in the order picked. */
  readonly picked = new Map<string, string>()
  private cursor: unknown[] = []
  private fixed: [number, number] = [0, 0]
  private shown = 0

  constructor(
    readonly source: HTMLSelectElement,
    readonly filters: Record<'status' | 'service' | 'text' | 'trace_id', HTMLInputElement>,
    readonly range: HTMLSelectElement,
  ) {
    this.more.addEventListener('click', () => void this.page())
  }

  /** Called when the filters change (not on a live tail pass): the field list counts again. */
  onFilters: () => void = () => undefined

  /** Starts over from the newest row with the current filters (kept in the URL). */
  apply(tail = false): Promise<void> {
    if (!tail) this.onFilters()
    const f = this.filters
    const p = { source: this.source.value, status: f.status.value, service: f.service.value }
    const all = { ...p, text: f.text.value, trace_id: f.trace_id.value, range: this.range.value }
    const url = new URLSearchParams(all)
    for (const [k, v] of this.picked) url.append('f', `${k}:${v}`)
    history.replaceState(null, '', `#/logs?${url}`)
    this.drawChips()
    return this.narrow(timeRange(this.range.value))
  }

  /** Filters the rows to `field = value` (status and service through their own inputs). */
  pick(field: string, value: string): void {
    if (field === 'status' || field === 'service') this.filters[field].value = value
    else this.picked.set(field, value)
    void this.apply()
  }

  /** What the field list counts over: the rows' own query and range. */
  context(): FieldContext {
    return { query: this.query(), range: this.fixed, pick: (k, v) => this.pick(k, v) }
  }

  private drawChips(): void {
    const chip = ([k, v]: [string, string]) =>
      h(
        'span',
        { class: 'label' },
        `${k} = ${v}`,
        h(
          'button',
          {
            type: 'button',
            title: 'remove',
            onclick: () => (this.picked.delete(k), void this.apply()),
          },
          '×',
        ),
      )
    fill(this.chips, ...[...this.picked].map(chip))
  }

  /** The rows the histogram counted over the range: the share the field list's counts are of. */
  get total(): number {
    return Number(this.hist.dataset.total ?? 0)
  }

  /** Starts over from the newest row of `span`, the histogram redrawn over it. */
  narrow(span: [number, number]): Promise<void> {
    this.cursor = []
    this.fixed = span
    this.shown = 0
    this.body.replaceChildren()
    void drawHistogram(this.hist, this.query(), span, (picked) => void this.narrow(picked))
    return this.page()
  }

  private query(): string {
    const f = this.filters
    return logQuery(this.source.value, {
      status: f.status.value,
      service: f.service.value,
      text: f.text.value,
      trace_id: f.trace_id.value,
      fields: [...this.picked],
    })
  }

  async page(): Promise<void> {
    this.more.disabled = true
    const q = this.query()
    const opts = { time_range: this.fixed, limit: PAGE_SIZE, search_after: this.cursor }
    const r = await dql(q, opts).catch((e: unknown) => {
      // The cursor has not moved: the same page can be asked for again.
      this.more.disabled = false
      fill(this.count, `${this.shown} rows; loading more failed: ${(e as Error).message}`)
      return null
    })
    if (!r) return
    const rows = rowsOf(r.series)
    for (const row of rows) this.body.append(logRow(row, this.pane))
    this.shown += rows.length
    this.cursor = r.search_after ?? []
    this.more.disabled = rows.length < PAGE_SIZE || !this.cursor.length
    fill(this.count, `${this.shown} rows${this.more.disabled ? ', no more' : ''}`)
  }
}

/** The filter form: source, filters, range, Apply and the live tail switch. */
function filterForm(s: LogStream, live: HTMLInputElement): HTMLElement {
  const submit = (e: Event) => (e.preventDefault(), void s.apply())
  const form = h('form', { class: 'toolbar', onsubmit: submit }, s.source)
  append(form, ...Object.values(s.filters), s.range, h('button', { type: 'submit' }, 'Apply'))
  append(form, h('label', { class: 'live' }, live, ' live tail'), s.chips)
  return form
}

const NO_LOGS =
  'No log source is stored yet. Write lines to /v1/write/logging, or tail a file with a ' +
  '[[inputs.logging]] input (README, "Tail a log file"); sources appear here once stored.'

export async function logsPage(main: HTMLElement, params: URLSearchParams): Promise<void> {
  const sources = (await call<Record<string, string[]>>('sources'))['L'] ?? []
  const choices = sources.map((s): [string, string] => [s, s])
  const source = select('source', choices, params.get('source') ?? sources[0] ?? '')
  const input = (name: string) =>
    h('input', { name, placeholder: name, value: params.get(name) ?? '' }) as HTMLInputElement
  const filters = { status: input('status'), service: input('service'), text: input('text') }
  const all = { ...filters, trace_id: input('trace_id') }
  const range = select('range', RANGES, params.get('range') ?? '24h')
  const s = new LogStream(source, all, range)
  for (const f of params.getAll('f')) {
    const at = f.indexOf(':')
    if (at > 0) s.picked.set(f.slice(0, at), f.slice(at + 1))
  }
  const live = h('input', { type: 'checkbox', id: 'live-tail' }) as HTMLInputElement
  const form = filterForm(s, live)
  const timer = setInterval(() => {
    if (!form.isConnected) clearInterval(timer)
    else if (live.checked) void s.apply(true)
  }, 5000)
  const head = h('tr', {}, ...['time', 'status', 'service', 'message'].map((t) => h('th', {}, t)))
  const table = h('table', { class: 'rows' }, h('thead', {}, head), s.body)
  const list = h('div', { class: 'log-list' }, table, h('p', {}, s.more, ' ', s.count))
  const fields = h('div', {})
  const layout = h('div', { class: 'logs-layout' }, fields, list, s.pane)
  fill(main, h('h1', {}, 'Logs'), form, s.hist, layout)
  if (!sources.length)
    return void fill(
      main,
      h('h1', {}, 'Logs'),
      h('p', { class: 'empty panel', id: 'no-logs' }, NO_LOGS),
    )
  const loadFields = async () =>
    fill(
      fields,
      await fieldList(
        `L::${source.value}`,
        () => s.context(),
        () => s.total,
      ),
    )
  // Open fields close on a new filter, so no count stays from the rows before it.
  s.onFilters = () => void loadFields()
  source.addEventListener('change', () => (s.picked.clear(), void s.apply()))
  await s.apply()
}
