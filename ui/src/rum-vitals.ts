/**
 * RUM summary for one application over a range: page views, errors, sessions and the web
 * vitals at their 75th percentile (as the Core Web Vitals are judged), each rated good, needs
 * improvement or poor by the published thresholds; then the top pages by views with their own
 * p75 LCP and error count. The SDK sends durations in nanoseconds and CLS as a plain score.
 * A vital no view carried shows as "–" (the query answers null, or fails on a column the
 * workspace has never stored).
 */
import { dql, type Series } from './api.js'
import { formatNumber } from './chart.js'
import { fill, h } from './dom.js'
import { rateVital, VITALS, type Vital } from './vitals.js'

export const TOP_PAGES = 10

/** The first value of the answer's first row, or null. */
const first = (series: Series[] | undefined, col = 1): number | null => {
  const v = series?.[0]?.values[0]?.[col]
  return typeof v === 'number' ? v : null
}

async function count(q: string, span: [number, number]): Promise<number> {
  return first((await dql(q, { time_range: span }).catch(() => null))?.series) ?? 0
}

function card(label: string, text: string, rating = '', id = ''): HTMLElement {
  return h(
    'div',
    { class: `stat ${rating}`, 'data-vital': id || undefined },
    h('span', { class: 'stat-label' }, label),
    h('span', { class: 'stat-value' }, text),
  )
}

async function vitalCard(v: Vital, where: string, span: [number, number]): Promise<HTMLElement> {
  const q = `R::view:(percentile(${v.field}, 75)) ${where}`
  const raw = first((await dql(q, { time_range: span }).catch(() => null))?.series)
  if (raw === null) return card(`${v.label} p75`, '–', 'none', v.label)
  const { text, rating } = rateVital(v, raw)
  return card(`${v.label} p75`, text, rating, v.label)
}

/** The cards: views, errors, sessions, then each vital. */
export async function summary(el: HTMLElement, where: string, span: [number, number]) {
  const [views, errors, sessions, ...vitals] = await Promise.all([
    count(`R::view:(count(*)) ${where}`, span),
    count(`R::error:(count(*)) ${where}`, span),
    count(`R::view:(count_distinct(session_id)) ${where}`, span),
    ...VITALS.map((v) => vitalCard(v, where, span)),
  ])
  fill(
    el,
    card('Page views', formatNumber(views), '', 'views'),
    card('Errors', formatNumber(errors), errors ? 'poor' : '', 'errors'),
    card('Sessions', formatNumber(sessions), '', 'sessions'),
    ...vitals,
  )
}

/** The busiest pages: views, p75 LCP and errors per `view_name`. */
export async function topPages(el: HTMLElement, where: string, span: [number, number]) {
  const opts = { time_range: span }
  const q = `R::view:(count(*), percentile(largest_contentful_paint, 75)) ${where} BY view_name`
  const [views, errors] = await Promise.all([
    dql(`${q} SORDER BY count(*) DESC SLIMIT ${TOP_PAGES}`, opts),
    dql(`R::error:(count(*)) ${where} BY view_name`, { ...opts, disable_slimit: true }),
  ])
  const errorsOf = new Map(errors.series.map((s) => [String(s.tags?.view_name), first([s]) ?? 0]))
  const lcp = VITALS[0]
  const rows = views.series.map((s) => {
    const name = String(s.tags?.view_name ?? '')
    const p75 = first([s], 2)
    const rated = p75 === null ? null : rateVital(lcp, p75)
    return h(
      'tr',
      {},
      h('td', {}, name),
      h('td', { class: 'num' }, formatNumber(first([s]) ?? 0)),
      h('td', { class: `num ${rated?.rating ?? ''}` }, rated?.text ?? '–'),
      h('td', { class: 'num' }, formatNumber(errorsOf.get(name) ?? 0)),
    )
  })
  const head = h(
    'tr',
    {},
    ...['page', 'views', 'LCP p75', 'errors'].map((t, i) => h('th', { class: i ? 'num' : '' }, t)),
  )
  const empty = h(
    'tr',
    {},
    h('td', { colspan: '4', class: 'empty' }, 'No page view in this range.'),
  )
  fill(el, h('table', { class: 'rows', id: 'rum-pages' }, head, ...(rows.length ? rows : [empty])))
}
