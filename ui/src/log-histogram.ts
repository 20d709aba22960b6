/**
 * The logs page's volume histogram: the rows the filters match, counted per status in buckets
 * of about a sixtieth of the shown range, as stacked bars (`stacked-bars.ts`). Dragging over it
 * or clicking a bar narrows the list to that span. The counts are DQL's own `count(*)`, so they
 * match a query. Each status keeps its colour (error red, warning amber, info blue) whatever
 * the order.
 */
import { dql } from './api.js'
import { fill, h } from './dom.js'
import { bucketMs, histogramQuery } from './dql-text.js'
import { drawStackedBars } from './stacked-bars.js'

/** Bar colours by status, as the rows colour them; another status gets grey. */
const STATUS_COLORS: Record<string, string> = {
  emerg: '#7f1d1d',
  alert: '#7f1d1d',
  critical: '#991b1b',
  error: '#dc2626',
  warning: '#f59e0b',
  warn: '#f59e0b',
  notice: '#0891b2',
  info: '#3b82f6',
  debug: '#9ca3af',
  ok: '#16a34a',
}

export async function drawHistogram(
  el: HTMLElement,
  logQuery: string,
  range: [number, number],
  onPick: (picked: [number, number]) => void,
): Promise<void> {
  try {
    const r = await dql(histogramQuery(logQuery, range), { time_range: range })
    const colorOf = (status: string) => STATUS_COLORS[status] ?? '#6b7280'
    drawStackedBars(el, r.series, {
      range,
      bucketMs: bucketMs(range),
      key: 'status',
      colorOf,
      onPick,
    })
    // The rows counted, for the page's readers and tests: the same figure as a DQL count(*).
    const total = r.series.flatMap((x) => x.values).reduce((n, v) => n + Number(v[1] ?? 0), 0)
    el.dataset.total = String(total)
  } catch (e) {
    fill(el, h('p', { class: 'error' }, (e as Error).message))
  }
}
