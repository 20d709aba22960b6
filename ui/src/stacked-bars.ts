/**
 * Counts over time as stacked bars, one colour per group (a log status, a RUM page), drawn in
 * the DOM: a count answer (`count(*) [::interval] BY key`) is laid on buckets of `bucketMs`
 * aligned to the epoch, as DQL aligns its intervals, so every group of one bucket stacks in
 * one bar and no two groups hide each other. A legend gives each group's total. With `onPick`,
 * a click on a bar or a drag over several hands their span [start, end) in ms to the page.
 */
import type { Series } from './api.js'
import { layBuckets, type BarsOptions } from './buckets.js'
import { formatNumber } from './chart.js'
import { fill, formatTime, h } from './dom.js'

export type { BarsOptions } from './buckets.js'

const short = (ms: number, long: boolean) => formatTime(ms).slice(long ? 5 : 11, 16)

function bar(
  counts: Map<string, number>,
  max: number,
  start: number,
  o: BarsOptions,
  order: string[],
) {
  const total = [...counts.values()].reduce((a, b) => a + b, 0)
  const tip = [
    formatTime(start).slice(0, 19),
    ...order.filter((g) => counts.has(g)).map((g) => `${g || '(none)'}: ${counts.get(g)}`),
  ]
  const segs = order
    .filter((g) => counts.has(g))
    .map((g) =>
      h('div', {
        class: 'seg',
        style: `height:${(100 * counts.get(g)!) / max}%;background:${o.colorOf(g, order.indexOf(g))}`,
      }),
    )
  return h('div', { class: 'bucket', title: tip.join('\n'), 'data-count': String(total) }, ...segs)
}

/** The picked span from the bucket a drag began on to the one it ended on. */
function pickable(plot: HTMLElement, first: number, o: BarsOptions): void {
  const onPick = o.onPick
  if (!onPick) return
  let from: number | null = null
  const index = (e: Event) => {
    const b = (e.target as HTMLElement).closest('.bucket')
    return b ? [...plot.children].indexOf(b) : null
  }
  plot.addEventListener('mousedown', (e) => ((from = index(e)), e.preventDefault()))
  plot.addEventListener('mouseup', (e) => {
    const to = index(e)
    if (from === null || to === null) return
    const [a, b] = [Math.min(from, to), Math.max(from, to)]
    from = null
    onPick([first + a * o.bucketMs, first + (b + 1) * o.bucketMs])
  })
}

export function drawStackedBars(el: HTMLElement, series: Series[], o: BarsOptions): void {
  const { first, buckets, totals } = layBuckets(series, o)
  const order = [...totals.keys()].sort()
  const max = Math.max(1, ...buckets.map((m) => [...m.values()].reduce((a, b) => a + b, 0)))
  const plot = h(
    'div',
    { class: 'plot' },
    ...buckets.map((m, i) => bar(m, max, first + i * o.bucketMs, o, order)),
  )
  plot.style.height = `${o.height ?? 120}px`
  pickable(plot, first, o)
  const long = o.range[1] - o.range[0] > 86_400_000
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) =>
    h('span', {}, short(o.range[0] + f * (o.range[1] - o.range[0]), long)),
  )
  const legend = order.map((g, i) =>
    h(
      'span',
      { class: 'legend-item', 'data-group': g },
      h('span', { class: 'swatch', style: `background:${o.colorOf(g, i)}` }),
      `${g || '(none)'} ${formatNumber(totals.get(g)!)}`,
    ),
  )
  fill(
    el,
    h('div', { class: 'bars-y' }, h('span', {}, formatNumber(max)), h('span', {}, '0')),
    plot,
    h('div', { class: 'bars-x' }, ...ticks),
    h('div', { class: 'bars-legend' }, ...(legend.length ? legend : ['No data in this range.'])),
  )
  el.classList.add('stacked-bars')
  el.dataset.groups = String(order.length)
}
