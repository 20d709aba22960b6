/**
 * Hosts: the host list of the Open API (the newest HOST object of each host reported within
 * the workspace's freshness window) with OS, CPUs, memory, load and the time of the last report;
 * each name opens the host's page.
 */
import { call } from './api.js'
import { formatBytes, formatTime, fill, h } from './dom.js'

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

export async function hostsPage(main: HTMLElement): Promise<void> {
  fill(main, h('h1', {}, 'Hosts'), h('p', { class: 'status' }, 'Loading…'))
  const hosts = await call<Host[]>('v1/object/host/list?pageSize=100')
  const rows = hosts.map((x) =>
    h(
      'tr',
      {},
      h('td', {}, h('a', { href: `#/host/${encodeURIComponent(x.name)}` }, x.name)),
      h('td', {}, [x.os, x.arch].filter(Boolean).join(' / ')),
      h('td', {}, String(x.num_cpu ?? '')),
      h('td', {}, x.mem_total ? formatBytes(x.mem_total) : ''),
      h('td', {}, pct(x.mem_used_percent)),
      h('td', {}, pct(x.disk_used_percent)),
      h('td', {}, typeof x.load === 'number' ? x.load.toFixed(2) : ''),
      h('td', {}, (x.labels ?? []).join(', ')),
      h('td', {}, formatTime(x.time)),
    ),
  )
  const head = [
    'host',
    'OS',
    'CPUs',
    'memory',
    'mem used',
    'disk used',
    'load',
    'labels',
    'last report',
  ]
  fill(
    main,
    h('h1', {}, 'Hosts'),
    hosts.length
      ? h(
          'table',
          { class: 'rows', id: 'hosts' },
          h('tr', {}, ...head.map((t) => h('th', {}, t))),
          ...rows,
        )
      : h('p', { class: 'empty' }, 'No host has reported recently.'),
  )
}
