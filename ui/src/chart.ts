/**
 * DQL answers drawn with uPlot: every value column of every series is a line (a `BY` group is
 * a series, labelled with its tags), on one time axis that is the union of all the series'
 * times (a missing time is a gap, not a zero). Drag to zoom, double-click to reset, hover for
 * values in the legend, and each line's last, min, max and avg in a table under it (numbers
 * formatted). `chartType` `table` draws the rows instead.
 */
import uPlot from 'uplot'
import type { Series } from './api.js'
import { formatTime, h } from './dom.js'

export type ChartType = 'line' | 'bar' | 'table'

/** The chart type choices of the pickers: value and label. */
export const CHART_TYPES: [ChartType, string][] = [
  ['line', 'lines'],
  ['bar', 'bars'],
  ['table', 'table'],
]

const COLORS = [
  '#2563eb',
  '#dc2626',
  '#16a34a',
  '#d97706',
  '#7c3aed',
  '#0891b2',
  '#db2777',
  '#65a30d',
]

export function seriesLabel(s: Series, column: string): string {
  const tags = Object.entries(s.tags ?? {}).map(([k, v]) => `${k}=${v ?? ''}`)
  return tags.length ? `${column} {${tags.join(', ')}}` : column
}

/** The aligned uPlot data (times in seconds) and one label per line. */
export function align(
  series: Series[],
  ends: number[] = [],
): { data: uPlot.AlignedData; labels: string[] } {
  const times = [
    ...new Set([...ends, ...series.flatMap((s) => s.values.map((v) => Number(v[0])))]),
  ].sort((a, b) => a - b)
  const at = new Map(times.map((t, i) => [t, i]))
  const labels: string[] = []
  const cols: (number | null)[][] = []
  for (const s of series)
    for (let c = 1; c < s.columns.length; c++) {
      const col: (number | null)[] = new Array(times.length).fill(null)
      for (const v of s.values) {
        const n = v[c]
        col[at.get(Number(v[0]))!] = typeof n === 'number' ? n : n === null ? null : Number(n)
      }
      labels.push(seriesLabel(s, s.columns[c]))
      cols.push(col)
    }
  return { data: [times.map((t) => t / 1000), ...cols], labels }
}

/**
 * Draws the answer into `el`; `range` ([start, end] in ms) fixes the time axis to the range
 * asked for, so a single point does not stretch the axis over years.
 */
export function drawChart(
  el: HTMLElement,
  series: Series[],
  type: ChartType,
  range?: [number, number],
  height = 260,
  onPick?: (picked: [number, number]) => void,
) {
  el.replaceChildren()
  if (type === 'table') return void el.append(table(series))
  // The range's ends are times with no values: the axis spans them, zoom and reset still work.
  const { data, labels } = align(series, range)
  el.dataset.lines = String(labels.length)
  if (!labels.length) return void el.append(h('p', { class: 'empty' }, 'No data in this range.'))
  const bars = type === 'bar' ? uPlot.paths.bars!({ size: [0.6, 40] }) : undefined
  const opts: uPlot.Options = {
    width: Math.max(300, el.clientWidth || 600),
    height,
    series: [
      { value: (_u, v) => (v === null ? '' : formatTime(v * 1000)) },
      ...labels.map((label, i) => ({
        label,
        stroke: COLORS[i % COLORS.length],
        fill: type === 'bar' ? COLORS[i % COLORS.length] + '66' : undefined,
        paths: bars,
        value: (_u: uPlot, v: number | null) => (v === null ? '--' : formatNumber(v)),
        spanGaps: false,
        points: { show: data[0].length < 60 },
      })),
    ],
    axes: [{}, { size: 60 }],
    cursor: { drag: { x: true, y: false, setScale: !onPick } },
  }
  const plot = new uPlot(opts, data, el)
  if (onPick) pickable(plot, onPick)
  el.append(statsTable(data, labels))
}

/**
 * A dragged span, or the bucket under a click, handed to `onPick` as [start, end] in ms
 * instead of zooming the chart: the page narrows its range and queries again.
 */
function pickable(plot: uPlot, onPick: (picked: [number, number]) => void): void {
  const xs = plot.data[0]
  plot.over.addEventListener('mouseup', () => {
    const { left, width } = plot.select
    if (width > 2)
      return onPick([plot.posToVal(left, 'x') * 1000, plot.posToVal(left + width, 'x') * 1000])
    const i = plot.cursor.idx
    if (i === null || i === undefined || i + 1 >= xs.length) return
    onPick([xs[i] * 1000, xs[i + 1] * 1000])
  })
}

export function table(series: Series[]): HTMLElement {
  const t = h('table', { class: 'rows' })
  for (const s of series) {
    const tags = Object.entries(s.tags ?? {}).map(([k, v]) => `${k}=${v}`)
    t.append(
      h('tr', {}, h('th', { colspan: String(s.columns.length) }, [s.name, ...tags].join(' '))),
    )
    t.append(h('tr', {}, ...s.columns.map((c) => h('th', {}, c))))
    for (const row of s.values)
      t.append(
        h('tr', {}, ...row.map((v, i) => h('td', {}, i === 0 ? formatTime(Number(v)) : cell(v)))),
      )
  }
  return t
}

export function cell(v: unknown): string {
  if (v === null || v === undefined) return ''
  if (typeof v === 'number') return formatNumber(v)
  return typeof v === 'object' ? JSON.stringify(v) : String(v)
}

/** A number as people read it: integers whole, others to 2 decimals, small ones to 3 digits. */
export function formatNumber(n: number): string {
  if (Number.isInteger(n) || !Number.isFinite(n)) return String(n)
  const abs = Math.abs(n)
  return String(Number(abs >= 1 ? n.toFixed(2) : n.toPrecision(3)))
}

/** Last, min, max and avg of each line, under the chart: readable without hovering. */
export function statsTable(data: uPlot.AlignedData, labels: string[]): HTMLElement {
  const head = h('tr', {}, ...['series', 'last', 'min', 'max', 'avg'].map((t) => h('th', {}, t)))
  const rows = labels.map((label, i) => {
    const vs = (data[i + 1] as (number | null)[]).filter((v): v is number => v !== null)
    const stats = vs.length
      ? [
          vs[vs.length - 1],
          Math.min(...vs),
          Math.max(...vs),
          vs.reduce((a, b) => a + b) / vs.length,
        ]
      : []
    const swatch = h('span', { class: 'swatch', style: `background:${COLORS[i % COLORS.length]}` })
    return h(
      'tr',
      {},
      h('td', {}, swatch, label),
      ...[0, 1, 2, 3].map((k) =>
        h('td', { class: 'num' }, stats.length ? formatNumber(stats[k]) : ''),
      ),
    )
  })
  return h('table', { class: 'legend-stats' }, head, ...rows)
}
