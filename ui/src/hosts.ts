/**
 * Hosts: the host list of the Open API (the newest HOST object of each host reported within
 * the workspace's freshness window) with OS, CPUs, memory and labels. CPU, memory and load are
 * the latest metrics of the last 15 minutes, as the host's charts show them, not the object's
 * figures (which are up to 5 minutes old); a host whose object is older than two object
 * intervals is marked stale. The table sorts by any column (click its head) and filters by
 * text; each name opens the host's page.
 */
import { call, dql, type Series } from './api.js'
import { formatNumber } from './chart.js'
import { formatBytes, formatTime, fill, h } from './dom.js'
import { timeRange } from './time.js'

export interface Host {
  name: string
  os?: string
  arch?: string
  num_cpu?: number
  cpu_model?: string
  mem_total?: number
  mem_used_percent?: number
  disk_used_percent?: number
  load?: number
  time: number
  labels: string[]
}

/** Objects come every 5 minutes: two missed reports make a host stale. */
const STALE_MS = 10 * 60_000
const LATEST: ['cpu' | 'mem_used_percent' | 'load', string][] = [
  ['cpu', 'M::cpu:(last(usage_total)) [15m] BY host'],
  ['mem_used_percent', 'M::mem:(last(used_percent)) [15m] BY host'],
  ['load', 'M::system:(last(load1)) [15m] BY host'],
]

type Shown = Host & { cpu?: number }
type Cell = [string | number | undefined, Node | string]

const pct = (n: number | undefined) => (typeof n === 'number' ? `${n.toFixed(1)} %` : '')
/** The columns that hold figures, aligned right. */
const NUMERIC = new Set(['CPUs', 'cpu used', 'memory', 'mem used', 'disk used', 'load'])

function cells(x: Shown): [string, Cell][] {
  const stale = Date.now() - x.time > STALE_MS
  return [
    ['host', [x.name, h('a', { href: `#/host/${encodeURIComponent(x.name)}` }, x.name)]],
    ['OS', [x.os, [x.os, x.arch].filter(Boolean).join(' / ')]],
    ['CPUs', [x.num_cpu, String(x.num_cpu ?? '')]],
    ['cpu used', [x.cpu, pct(x.cpu)]],
    ['memory', [x.mem_total, x.mem_total ? formatBytes(x.mem_total) : '']],
    ['mem used', [x.mem_used_percent, pct(x.mem_used_percent)]],
    ['disk used', [x.disk_used_percent, pct(x.disk_used_percent)]],
    ['load', [x.load, typeof x.load === 'number' ? formatNumber(x.load) : '']],
    ['labels', [(x.labels ?? []).join(', '), (x.labels ?? []).join(', ')]],
    [
      'last report',
      [
        x.time,
        h('span', {}, formatTime(x.time), stale ? h('span', { class: 'badge' }, 'stale') : ''),
      ],
    ],
  ]
}

/** The hosts with their latest metric values where the metrics have them. */
async function withLatest(hosts: Host[]): Promise<Shown[]> {
  const byName = new Map(hosts.map((x): [string, Shown] => [x.name, { ...x }]))
  const answers = await Promise.all(
    LATEST.map(([, q]) => dql(q, { time_range: timeRange('15m') }).catch(() => null)),
  )
  answers.forEach((r, i) => {
    for (const s of (r?.series ?? []) as Series[]) {
      const host = byName.get(String(s.tags?.host ?? ''))
      const v = s.values[0]?.[1]
      if (host && typeof v === 'number') host[LATEST[i][0]] = v
    }
  })
  return [...byName.values()]
}

function compare(a: Cell[0], b: Cell[0]): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1
  return typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b))
}

function hostTable(hosts: Shown[], filter: string, sort: { col: number; desc: boolean }) {
  const rows = hosts
    .map((x) => ({ x, c: cells(x) }))
    .filter(
      ({ c }) =>
        !filter ||
        c.some(([, [v]]) =>
          String(v ?? '')
            .toLowerCase()
            .includes(filter),
        ),
    )
    .sort((a, b) => compare(a.c[sort.col][1][0], b.c[sort.col][1][0]) * (sort.desc ? -1 : 1))
  const head = cells(hosts[0]).map(([name], i) =>
    h(
      'th',
      { 'data-col': String(i), class: NUMERIC.has(name) ? 'sortable num' : 'sortable' },
      name + (i === sort.col ? (sort.desc ? ' ▼' : ' ▲') : ''),
    ),
  )
  const body = rows.map(({ x, c }) =>
    h(
      'tr',
      { class: Date.now() - x.time > STALE_MS ? 'stale' : '' },
      ...c.map(([name, [, shown]]) => h('td', { class: NUMERIC.has(name) ? 'num' : '' }, shown)),
    ),
  )
  return h('table', { class: 'rows', id: 'hosts' }, h('tr', {}, ...head), ...body)
}

export async function hostsPage(main: HTMLElement): Promise<void> {
  fill(main, h('h1', {}, 'Hosts'), h('p', { class: 'status' }, 'Loading…'))
  const hosts = await withLatest(await call<Host[]>('v1/object/host/list?pageSize=100'))
  if (!hosts.length)
    return void fill(
      main,
      h('h1', {}, 'Hosts'),
      h(
        'p',
        { class: 'empty' },
        'No host has reported in the object freshness window. Hosts appear when an agent with ' +
          'the hostobject input uploads to this workspace (it reports every 5 minutes).',
      ),
    )
  const sort = { col: 0, desc: false }
  const search = h('input', {
    type: 'search',
    id: 'host-search',
    placeholder: 'filter hosts',
  }) as HTMLInputElement
  const box = h('div', {})
  const draw = () => fill(box, hostTable(hosts, search.value.trim().toLowerCase(), sort))
  search.addEventListener('input', draw)
  box.addEventListener('click', (e) => {
    const col = (e.target as HTMLElement).closest('th')?.dataset.col
    if (col === undefined) return
    Object.assign(sort, { col: Number(col), desc: sort.col === Number(col) ? !sort.desc : false })
    draw()
  })
  const stale = hosts.filter((x) => Date.now() - x.time > STALE_MS).length
  const note = `${hosts.length} hosts, ${stale} stale (no host object for 10 minutes). CPU, memory and load are each host's latest metrics of the last 15 minutes.`
  const bar = h('div', { class: 'toolbar' }, search, h('span', { class: 'status' }, note))
  fill(main, h('h1', {}, 'Hosts'), bar, box)
  draw()
}
