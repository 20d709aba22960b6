/**
 * A chart's display options (unit, decimals, stacked, y min/max) turned into uPlot's: values
 * formatted with the unit on the axis (a second unit on a right axis), the legend and the stats; stacked lines and bars drawn
 * as running sums with each band filled down to the one below, while the legend and stats
 * still read each line's own values; bars sized from the spacing of the buckets, at least 3 px
 * and at most 60 px wide. No DOM here beyond uPlot's types.
 */
import type uPlot from 'uplot'
import { formatValue } from './units.js'

export interface ChartOptions {
  /** `auto` (or absent): each line's unit from its column and measurement (units.ts). */
  unit?: string
  decimals?: number
  stacked?: boolean
  min?: number
  max?: number
  /** The namespace of the query (`M`, `T`, ...), for `auto` units. */
  ns?: string
}

export function formatter(unit: string, decimals?: number): (v: number) => string {
  return (v) => formatValue(v, unit, decimals)
}

/** An axis's tick labels: more digits while two ticks would read the same (`1.4 MiB` twice). */
export function tickLabels(splits: number[], unit: string, decimals?: number): string[] {
  let out = splits.map((v) => formatValue(v, unit, decimals))
  for (let d = 1; decimals === undefined && d <= 4 && new Set(out).size < out.length; d++)
    out = splits.map((v) => formatValue(v, unit, d))
  return out
}

/** Running sums of the lines at each time: a line missing there adds nothing and draws no point. */
export function stack(cols: (number | null)[][]): (number | null)[][] {
  const total: number[] = new Array(cols[0]?.length ?? 0).fill(0)
  return cols.map((col) => col.map((v, t) => (v === null ? null : (total[t] += v))))
}

/** Bands filling each stacked line down to the one below it (series are 1-based in uPlot). */
export function stackBands(lines: number): uPlot.Band[] {
  return Array.from({ length: Math.max(0, lines - 1) }, (_, i) => ({ series: [i + 2, i + 1] }))
}

/** The y scale: the chosen ends, uPlot's own padding where none is chosen. */
export function yScale(o: ChartOptions): uPlot.Scale {
  if (o.min === undefined && o.max === undefined) return {}
  return {
    range: (_u, dataMin, dataMax) => {
      const lo = o.min ?? Math.min(dataMin, 0)
      const hi = o.max ?? (dataMax > lo ? dataMax * 1.05 : lo + 1)
      return [lo, hi]
    },
  }
}

/**
 * Axis label width for the longest formatted split (uPlot's fixed 60 px cuts `1.5 GiB/s`);
 * uPlot passes the axis's index.
 */
export function axisSize(u: uPlot, values: string[] | null, axis: number): number {
  const longest = Math.max(0, ...(values ?? []).map((v) => String(v).length))
  return Math.max(50, 12 + longest * 7 + (u.axes[axis].gap ?? 0))
}

/** Bars sized from the buckets' spacing: [fraction of the gap, max px, min px]. */
export const BAR_SIZE: [number, number, number] = [0.7, 60, 3]

/** Buckets aimed at for bars: one per ~14 px of width, so bars are bars and not hairlines. */
export function barPoints(width: number): number {
  return Math.max(12, Math.min(120, Math.round(width / 14)))
}
