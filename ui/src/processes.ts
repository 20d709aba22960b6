/**
 * A host's process table: the newest state of each process (the Open API's process list, read
 * page by page up to MAX_PROCESSES), ordered by CPU or by memory, shown PAGE_ROWS at a time so
 * the table stays under one screen however many processes run. Each process is one line with
 * its command cut to the column's width; a click opens a line under it with the whole command.
 * A filter narrows by pid, name, user or command.
 */
import { call } from './api.js'
import { formatBytes, fill, h } from './dom.js'

export interface Process {
  pid: number
  process_name: string
  username: string
  cpu_usage?: number
  mem_used_percent?: number
  rss?: number
  cmdline: string
}

export const PAGE_ROWS = 15
/** Which columns are figures, aligned right. */
const NUMERIC = [true, false, false, true, true, true, false]
/** The list API's largest page, and how many pages are read at most (10 000 processes). */
const API_PAGE = 100
const MAX_PAGES = 100
export const MAX_PROCESSES = API_PAGE * MAX_PAGES

type Order = 'cpu' | 'mem'
const KEY: Record<Order, (p: Process) => number> = {
  cpu: (p) => p.cpu_usage ?? 0,
  mem: (p) => p.mem_used_percent ?? 0,
}

/** Every process of the host the list API has, pages read until its total is reached. */
async function readAll(host: string): Promise<Process[]> {
  const list: Process[] = []
  for (let page = 1; page <= MAX_PAGES; page++) {
    const q = `host=${encodeURIComponent(host)}&pageSize=${API_PAGE}&pageIndex=${page}`
    const got = (await call<Process[] | null>(`v1/object/process/list?${q}`)) ?? []
    list.push(...got)
    if (got.length < API_PAGE) break
  }
  return list
}

function matches(p: Process, needle: string): boolean {
  if (!needle) return true
  return [p.pid, p.process_name, p.username, p.cmdline].some((v) =>
    String(v ?? '')
      .toLowerCase()
      .includes(needle),
  )
}

function processRow(p: Process): HTMLElement[] {
  const full = h('tr', { class: 'cmd-full', hidden: true }, h('td', { colspan: '7' }, p.cmdline))
  const line = h(
    'tr',
    { title: 'show the whole command', onclick: () => (full.hidden = !full.hidden) },
    h('td', { class: 'num' }, String(p.pid)),
    h('td', {}, p.process_name),
    h('td', {}, p.username),
    h('td', { class: 'num' }, (p.cpu_usage ?? 0).toFixed(1)),
    h('td', { class: 'num' }, (p.mem_used_percent ?? 0).toFixed(1)),
    h('td', { class: 'num' }, p.rss ? formatBytes(p.rss) : ''),
    h('td', { class: 'cmd' }, p.cmdline),
  )
  return [line, full]
}

/**
 * The order toggle, filter, pager and table; all but the filter are drawn again on every change
 * (the filter stays in place, so typing keeps its focus).
 */
class ProcessView {
  private order: Order = 'cpu'
  private page = 0
  private readonly filter = h('input', {
    type: 'search',
    id: 'proc-filter',
    placeholder: 'filter pid, name, user, command',
  }) as HTMLInputElement
  private readonly parts = { toggle: h('span'), pager: h('span'), table: h('div') }
  readonly el = h(
    'div',
    { class: 'procs', id: 'procs' },
    h('div', { class: 'toolbar' }, this.parts.toggle, this.filter, this.parts.pager),
    this.parts.table,
  )

  constructor(private readonly all: Process[]) {
    this.filter.addEventListener('input', () => ((this.page = 0), this.draw()))
  }

  private toggle(): HTMLElement {
    const button = (o: Order, label: string) =>
      h(
        'button',
        {
          type: 'button',
          id: `proc-top-${o}`,
          class: o === this.order ? 'seg on' : 'seg',
          'aria-pressed': String(o === this.order),
          onclick: () => ((this.order = o), (this.page = 0), this.draw()),
        },
        label,
      )
    return h(
      'span',
      { class: 'segmented' },
      button('cpu', 'Top by CPU'),
      button('mem', 'by memory'),
    )
  }

  private pager(count: number): HTMLElement {
    const pages = Math.max(1, Math.ceil(count / PAGE_ROWS))
    const go = (d: number) => () => ((this.page += d), this.draw())
    const first = count ? this.page * PAGE_ROWS + 1 : 0
    const last = Math.min(count, (this.page + 1) * PAGE_ROWS)
    return h(
      'span',
      { class: 'pager' },
      h(
        'button',
        { type: 'button', id: 'proc-prev', disabled: this.page === 0, onclick: go(-1) },
        '‹',
      ),
      h('span', { id: 'proc-range', class: 'status' }, `${first}–${last} of ${count}`),
      h(
        'button',
        { type: 'button', id: 'proc-next', disabled: this.page >= pages - 1, onclick: go(1) },
        '›',
      ),
    )
  }

  draw(): void {
    const needle = this.filter.value.trim().toLowerCase()
    const key = KEY[this.order]
    const shown = this.all.filter((p) => matches(p, needle)).sort((a, b) => key(b) - key(a))
    this.page = Math.min(this.page, Math.max(0, Math.ceil(shown.length / PAGE_ROWS) - 1))
    const rows = shown.slice(this.page * PAGE_ROWS, (this.page + 1) * PAGE_ROWS)
    const head = ['pid', 'name', 'user', 'cpu %', 'mem %', 'rss', 'command']
    const table = h(
      'table',
      { class: 'rows', id: 'processes' },
      h(
        'thead',
        {},
        h('tr', {}, ...head.map((t, i) => h('th', { class: NUMERIC[i] ? 'num' : '' }, t))),
      ),
      h('tbody', {}, ...rows.flatMap(processRow)),
    )
    fill(this.parts.toggle, this.toggle())
    fill(this.parts.pager, this.pager(shown.length))
    fill(this.parts.table, shown.length ? table : h('p', { class: 'empty' }, 'No process matches.'))
  }
}

/** The host's process table, or a line saying why there is none. */
export async function processTable(host: string): Promise<HTMLElement> {
  const list = await readAll(host)
  if (!list.length)
    return h(
      'p',
      { class: 'empty' },
      'No process reported in the object freshness window: the host_processes input sends them.',
    )
  const view = new ProcessView(list)
  view.draw()
  return view.el
}
