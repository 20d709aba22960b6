/**
 * The logs page's volume histogram: the rows the filters match, counted per status in buckets
 * of the automatic interval over the shown range, as bars. Dragging over it or clicking a bar
 * narrows the list to that span. The counts are DQL's own `count(*)`, so they match a query.
 */
import { dql } from './api.js'
import { drawChart } from './chart.js'
import { fill, h } from './dom.js'
import { histogramQuery } from './dql-text.js'

export async function drawHistogram(
  el: HTMLElement,
  logQuery: string,
  range: [number, number],
  onPick: (picked: [number, number]) => void,
): Promise<void> {
  try {
    const r = await dql(histogramQuery(logQuery, range), { time_range: range })
    drawChart(el, r.series, 'bar', range, 140, onPick)
    // The rows counted, for the page's readers and tests: the same figure as a DQL count(*).
    const total = r.series.flatMap((x) => x.values).reduce((n, v) => n + Number(v[1] ?? 0), 0)
    el.dataset.total = String(total)
  } catch (e) {
    fill(el, h('p', { class: 'error' }, (e as Error).message))
  }
}
