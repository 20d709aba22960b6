/**
 * DQL answers drawn with uPlot: every value column of every series is a line (a `BY` group is
 * a series, labelled with its tags), on one time axis that is the union of all the series'
 * times (a missing time is a gap, not a zero). Drag to zoom (or, given `onPick`, hand the span
 * to the page, which narrows its range), double-click to reset, hover for values in the
 * legend, and each line's last, min, max and avg in a table under it. Values read with their
 * unit, and the display options (unit, decimals, stacked, y min/max) are chart-style.ts's.
 * `chartType` `table` draws the rows instead (chart-table.ts).
 */
import uPlot from 'uplot'
import type { Series } from './api.js'
import { COLORS, columnUnit, statsTable, table } from './chart-table.js'
import {
  axisSize,
  BAR_SIZE,
  formatter,
  tickLabels,
  stack,
  stackBands,
  yScale,
  type ChartOptions,
} from './chart-style.js'
import { formatTime, h } from './dom.js'

export { cell, table } from './chart-table.js'
export { formatNumber } from './units.js'
export type { ChartOptions } from './chart-style.js'

export type ChartType = 'line' | 'bar' | 'table'

/** The chart type choices of the pickers: value and label. */
export const CHART_TYPES: [ChartType, string][] = [
  ['line', 'lines'],
  ['bar', 'bars'],
  ['table', 'table'],
]

export function seriesLabel(s: Series, column: string): string {
  const tags = Object.entries(s.tags ?? {}).map(([k, v]) => `${k}=${v ?? ''}`)
  return tags.length ? `${column} {${tags.join(', ')}}` : column
}

/**
 * The aligned uPlot data (times in seconds), one label per line and the [measurement, column]
 * each line reads (for its unit).
 */
export function align(
  series: Series[],
  ends: number[] = [],
): { data: uPlot.AlignedData; labels: string[]; columns: [string, string][] } {
  const times = [
    ...new Set([...ends, ...series.flatMap((s) => s.values.map((v) => Number(v[0])))]),
  ].sort((a, b) => a - b)
  const at = new Map(times.map((t, i) => [t, i]))
  const labels: string[] = []
  const columns: [string, string][] = []
  const cols: (number | null)[][] = []
  for (const s of series)
    for (let c = 1; c < s.columns.length; c++) {
      const col: (number | null)[] = new Array(times.length).fill(null)
      for (const v of s.values) {
        const n = v[c]
        col[at.get(Number(v[0]))!] = typeof n === 'number' ? n : n === null ? null : Number(n)
      }
      labels.push(seriesLabel(s, s.columns[c]))
      columns.push([s.name, s.columns[c]])
      cols.push(col)
    }
  return { data: [times.map((t) => t / 1000), ...cols], labels, columns }
}

/**
 * Draws the answer into `el`; `range` ([start, end] in ms) fixes the time axis to the range
 * asked for, so a single point does not stretch the axis over years. `onPick` gets a dragged
 * span, or the bucket under a click unless `dragOnly`, instead of the chart zooming itself.
 */
export function drawChart(
  el: HTMLElement,
  series: Series[],
  type: ChartType,
  range?: [number, number],
  height = 260,
  onPick?: (picked: [number, number]) => void,
  opts: ChartOptions & { dragOnly?: boolean } = {},
) {
  el.replaceChildren()
  if (type === 'table') return void el.append(table(series, opts))
  // The range's ends are times with no values: the axis spans them, zoom and reset still work.
  const { data, labels, columns } = align(series, range)
  el.dataset.lines = String(labels.length)
  if (!labels.length) return void el.append(h('p', { class: 'empty' }, 'No data in this range.'))
  const own = data.slice(1) as (number | null)[][]
  // The fewest points any line has: tests and people can see whether lines read as lines.
  el.dataset.points = String(Math.min(...own.map((c) => c.filter((v) => v !== null).length)))
  const formats = columns.map(([m, c]) => formatter(columnUnit(opts, m, c), opts.decimals))
  const drawn = opts.stacked ? stack(own) : own
  const width = Math.max(300, el.clientWidth || 600)
  const look = { type, labels, height, width, opts, formats, own, columns, picking: !!onPick }
  const plot = new uPlot(plotOptions(look), [data[0], ...drawn], el)
  if (onPick) pickable(plot, onPick, !!opts.dragOnly)
  el.append(statsTable(own, labels, formats))
}

/** What uPlot's options are made from: the lines, their own values and formats, the look. */
interface Look {
  type: ChartType
  labels: string[]
  height: number
  width: number
  opts: ChartOptions
  formats: ((v: number) => string)[]
  own: (number | null)[][]
  columns: [string, string][]
  picking: boolean
}

function plotOptions(look: Look): uPlot.Options {
  const { type, labels, height, width, opts, formats, own, columns, picking } = look
  const bars = type === 'bar' ? uPlot.paths.bars!({ size: BAR_SIZE }) : undefined
  // The first line's unit is the left axis's; lines of another go on a right axis of their own.
  const units = columns.map(([m, c]) => columnUnit(opts, m, c))
  const left = units[0] ?? 'none'
  const right = units.find((u) => u !== left) ?? null
  const scaleOf = (i: number) => (right !== null && units[i] !== left ? 'y2' : 'y')
  const points = own[0]?.length ?? 0
  return {
    width,
    height,
    series: [
      { value: (_u, v) => (v === null ? '' : formatTime(v * 1000)) },
      ...labels.map((label, i) => ({
        label,
        stroke: COLORS[i % COLORS.length],
        fill: type === 'bar' || opts.stacked ? COLORS[i % COLORS.length] + '66' : undefined,
        paths: bars,
        scale: scaleOf(i),
        // The legend reads the line's own value (not its running sum when stacked), and its
        // last one while the cursor is off the chart rather than `--`.
        value: (_u: uPlot, _v: number | null, _s: number, idx: number | null) => {
          const v = idx === null ? own[i].findLast((x) => x !== null) : own[i][idx]
          return v === null || v === undefined ? '--' : formats[i](v)
        },
        spanGaps: false,
        points: { show: points < 60 },
      })),
    ],
    bands: opts.stacked ? stackBands(labels.length) : undefined,
    scales: { y: yScale(opts) },
    axes: [{}, valueAxis('y', left, opts.decimals), ...(right ? [valueAxis('y2', right)] : [])],
    cursor: { drag: { x: true, y: false, setScale: !picking } },
  }
}

/** A y axis whose ticks read in `unit`; the second one on the right, without its own grid. */
function valueAxis(scale: string, unit: string, decimals?: number): uPlot.Axis {
  const values = (_u: uPlot, splits: number[]) => tickLabels(splits, unit, decimals)
  if (scale === 'y') return { scale, size: axisSize, values }
  return { scale, size: axisSize, values, side: 1, grid: { show: false } }
}

/**
 * A dragged span, or the bucket under a click (unless `dragOnly`), handed to `onPick` as
 * [start, end] in ms instead of zooming the chart: the page narrows its range and queries again.
 */
function pickable(plot: uPlot, onPick: (picked: [number, number]) => void, dragOnly: boolean) {
  const xs = plot.data[0]
  plot.over.addEventListener('mouseup', () => {
    const { left, width } = plot.select
    if (width > 2)
      return onPick([plot.posToVal(left, 'x') * 1000, plot.posToVal(left + width, 'x') * 1000])
    const i = plot.cursor.idx
    if (dragOnly || i === null || i === undefined || i + 1 >= xs.length) return
    onPick([xs[i] * 1000, xs[i + 1] * 1000])
  })
}
