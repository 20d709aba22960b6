/**
 * Hosts: the host list of the Open API (the newest HOST object of each host reported within
 * the workspace's freshness window) with OS, CPUs, memory, load and the time of the last report;
 * each name opens the host's page.
 */
import { call } from './api.js'
import { formatBytes, formatTime, fill, h, row } from './dom.js'

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

const pct = (n: number | undefined) => (typeof n === 'number' ? `${n.toFixed(1)} %` : '')

const HEAD = ['host', 'OS', 'CPUs', 'memory', 'mem used', 'disk used', 'load', 'labels']

function hostRow(x: Host): HTMLElement {
  return row([
    h('a', { href: `#/host/${encodeURIComponent(x.name)}` }, x.name),
    [x.os, x.arch].filter(Boolean).join(' / '),
    String(x.num_cpu ?? ''),
    x.mem_total ? formatBytes(x.mem_total) : '',
    pct(x.mem_used_percent),
    pct(x.disk_used_percent),
    typeof x.load === 'number' ? x.load.toFixed(2) : '',
    (x.labels ?? []).join(', '),
    formatTime(x.time),
  ])
}

export async function hostsPage(main: HTMLElement): Promise<void> {
  fill(main, h('h1', {}, 'Hosts'), h('p', { class: 'status' }, 'Loading…'))
  const hosts = await call<Host[]>('v1/object/host/list?pageSize=100')
  const head = row([...HEAD, 'last report'], true)
  fill(
    main,
    h('h1', {}, 'Hosts'),
    hosts.length
      ? h('table', { class: 'rows', id: 'hosts' }, head, ...hosts.map(hostRow))
      : h('p', { class: 'empty' }, 'No host has reported recently.'),
  )
}
