/**
 * The text beside and instead of a chart: the rows of an answer as a table (`chartType`
 * `table`) and each line's last, min, max and avg under a chart, readable without hovering.
 * Numbers are formatted with their unit (units.ts): a chart's chosen unit and decimals, else
 * each column's own guess, so a table never prints `10.052904317578449`.
 */
import type { Series } from './api.js'
import { formatTime, h } from './dom.js'
import { formatValue, unitOf } from './units.js'
import type { ChartOptions } from './chart-style.js'

export const COLORS = [
  '#2563eb',
  '#dc2626',
  '#16a34a',
  '#d97706',
  '#7c3aed',
  '#0891b2',
  '#db2777',
  '#65a30d',
]

/** A cell's text: numbers formatted (with `unit` when given), objects as JSON. */
export function cell(v: unknown, unit = 'none', decimals?: number): string {
  if (v === null || v === undefined) return ''
  if (typeof v === 'number') return formatValue(v, unit, decimals)
  return typeof v === 'object' ? JSON.stringify(v) : String(v)
}

/** The unit of one column: the chart's chosen one, else the column's own guess. */
export function columnUnit(o: ChartOptions, measurement: string, column: string): string {
  return o.unit && o.unit !== 'auto' ? o.unit : unitOf(column, measurement, o.ns ?? 'M')
}

export function table(series: Series[], o: ChartOptions = {}): HTMLElement {
  const t = h('table', { class: 'rows' })
  for (const s of series) {
    const tags = Object.entries(s.tags ?? {}).map(([k, v]) => `${k}=${v}`)
    const units = s.columns.map((c) => columnUnit(o, s.name, c))
    t.append(
      h('tr', {}, h('th', { colspan: String(s.columns.length) }, [s.name, ...tags].join(' '))),
    )
    t.append(h('tr', {}, ...s.columns.map((c) => h('th', {}, c))))
    for (const row of s.values)
      t.append(
        h(
          'tr',
          {},
          ...row.map((v, i) =>
            i === 0
              ? h('td', {}, formatTime(Number(v)))
              : h('td', { class: 'num' }, cell(v, units[i], o.decimals)),
          ),
        ),
      )
  }
  return t
}

/** Last, min, max and avg of each line, each in its own unit. */
export function statsTable(
  cols: (number | null)[][],
  labels: string[],
  format: ((v: number) => string)[],
): HTMLElement {
  const head = h('tr', {}, ...['series', 'last', 'min', 'max', 'avg'].map((t) => h('th', {}, t)))
  const rows = labels.map((label, i) => {
    const vs = cols[i].filter((v): v is number => v !== null)
    const stats = vs.length
      ? [
          vs[vs.length - 1],
          Math.min(...vs),
          Math.max(...vs),
          vs.reduce((a, b) => a + b) / vs.length,
        ]
      : []
    const swatch = h('span', { class: 'swatch', style: `background:${COLORS[i % COLORS.length]}` })
    const nums = [0, 1, 2, 3].map((k) =>
      h('td', { class: 'num' }, stats.length ? format[i](stats[k]) : ''),
    )
    return h('tr', {}, h('td', {}, swatch, label), ...nums)
  })
  return h('table', { class: 'legend-stats' }, head, ...rows)
}
