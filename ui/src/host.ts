/**
 * One host: its facts, editable labels (saved through the object labels API, which replaces
 * the host's list), cpu/mem/disk/net charts over the chosen range, and its processes (the
 * newest state of each, top by CPU or memory, a page at a time: `processes.ts`).
 */
import { call, dql, quote } from './api.js'
import { drawChart } from './chart.js'
import { formatBytes, formatTime, fill, h, select } from './dom.js'
import type { Host } from './hosts.js'
import { processTable } from './processes.js'
import { interval, RANGES, timeRange } from './time.js'

const CHARTS: [string, string][] = [
  ['CPU usage %', 'M::cpu:(avg(usage_total))'],
  ['Memory used %', 'M::mem:(avg(used_percent))'],
  ['Disk used %', 'M::disk:(max(used_percent)) BY mount_point'],
  [
    'Network bytes/s',
    'M::net:(avg(`bytes_recv/sec`) AS recv, avg(`bytes_sent/sec`) AS sent) BY interface',
  ],
]

/** A host chart's query: the host filter and the bucket interval go before any BY. */
export function hostQuery(base: string, host: string, range: string): string {
  const by = base.indexOf(' BY ')
  const head = by < 0 ? base : base.slice(0, by)
  return `${head} {host = ${quote(host)}} [::${interval(range)}]${by < 0 ? '' : base.slice(by)}`
}

function labelsEditor(host: Host): HTMLElement {
  const labels = [...(host.labels ?? [])]
  const box = h('div', { id: 'labels', class: 'labels' })
  const input = h('input', { name: 'label', placeholder: 'new label' }) as HTMLInputElement
  const save = async () => {
    await call('labels', { object_class: 'HOST', object_name: host.name, labels })
    draw()
  }
  const add = (e: Event) => {
    e.preventDefault()
    const label = input.value.trim()
    input.value = ''
    if (label && !labels.includes(label)) labels.push(label)
    void save()
  }
  const draw = () =>
    fill(
      box,
      ...labels.map((l, i) =>
        h(
          'span',
          { class: 'label' },
          l,
          h('button', { title: 'remove', onclick: () => (labels.splice(i, 1), void save()) }, '×'),
        ),
      ),
      h('form', { onsubmit: add }, input, h('button', { type: 'submit' }, 'Add label')),
    )
  draw()
  return box
}

export async function hostPage(main: HTMLElement, name: string, params: URLSearchParams) {
  fill(main, h('h1', {}, name), h('p', { class: 'status' }, 'Loading…'))
  const [host] = await call<Host[]>(`v1/object/host/list?name=${encodeURIComponent(name)}`)
  const range = select('range', RANGES, params.get('range') ?? '1h')
  range.addEventListener('change', () =>
    location.assign(`#/host/${encodeURIComponent(name)}?range=${range.value}`),
  )
  const charts = h('div', { class: 'grid' })
  const procs = h('div', {}, h('p', { class: 'status' }, 'Loading processes…'))
  fill(
    main,
    h('h1', {}, name),
    host
      ? h(
          'p',
          { class: 'facts' },
          `${host.os ?? ''} ${host.arch ?? ''} · ${host.num_cpu ?? '?'} CPUs ${host.cpu_model ?? ''} · ${host.mem_total ? formatBytes(host.mem_total) : '?'} · last report ${formatTime(host.time)}`,
        )
      : h('p', { class: 'empty' }, 'This host has not reported recently.'),
    host ? labelsEditor(host) : null,
    h('div', { class: 'toolbar' }, h('label', { class: 'field' }, 'Charts over', range)),
    charts,
    h('h2', {}, 'Processes'),
    procs,
  )
  const shown = timeRange(range.value)
  for (const [title, base] of CHARTS) {
    const el = h('div', { class: 'chart' })
    charts.append(h('section', { class: 'panel' }, h('h3', {}, title), el))
    dql(hostQuery(base, name, range.value), { time_range: shown })
      .then((r) => drawChart(el, r.series, 'line', shown, 200))
      .catch((e) => fill(el, h('p', { class: 'error' }, String((e as Error).message))))
  }
  fill(procs, await processTable(name))
}
