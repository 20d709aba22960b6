/**
 * The logs page's field list: the source's tags and fields from the workspace catalog, beside
 * the rows. Opening a field counts its values over the range with the page's filters (DQL's
 * own `count(*) BY field`, the TOP_VALUES largest), each with its share of the rows; a click
 * on a value filters the list to it. One query per opened field, only when opened.
 */
import { call, dql } from './api.js'
import { formatNumber } from './chart.js'
import { fill, h } from './dom.js'
import { topValuesQuery } from './dql-text.js'

export const TOP_VALUES = 5
/** Fields shown at most: a source with hundreds of keys still gives a list that fits. */
const MAX_FIELDS = 60
/** Columns every row has, shown in the table already. */
const SKIP = new Set(['time', 'message'])

interface Columns {
  fields: { name: string; type: string }[]
  tags: string[]
}

export interface FieldContext {
  /** The list's query (`L::source {filters}`) and range, as the rows were read. */
  query: string
  range: [number, number]
  /** Filters the list to `field = value`. */
  pick(field: string, value: string): void
}

/** The top values of `field` as [value, count], largest first. */
async function topValues(field: string, ctx: FieldContext): Promise<[string, number][]> {
  const r = await dql(topValuesQuery(ctx.query, field, TOP_VALUES), { time_range: ctx.range })
  return r.series
    .map((s): [string, number] => [String(s.tags?.[field] ?? ''), Number(s.values[0]?.[1] ?? 0)])
    .sort((a, b) => b[1] - a[1])
}

function valueList(field: string, ctx: FieldContext, top: [string, number][], total: number) {
  if (!top.length) return h('p', { class: 'empty' }, 'No value in this range.')
  return h(
    'ul',
    { class: 'top-values' },
    ...top.map(([value, n]) => {
      const share = total ? (100 * n) / total : 0
      return h(
        'li',
        {},
        h(
          'button',
          {
            type: 'button',
            class: 'link',
            title: `filter ${field} = ${value}`,
            onclick: () => ctx.pick(field, value),
          },
          value === '' ? '(empty)' : value,
        ),
        h('span', { class: 'status' }, `${formatNumber(n)} · ${share.toFixed(0)} %`),
        h('span', { class: 'share', style: `width:${share.toFixed(1)}%` }),
      )
    }),
  )
}

function fieldItem(name: string, kind: string, ctx: () => FieldContext, total: () => number) {
  const values = h('div', { class: 'values', hidden: true })
  const open = async () => {
    values.hidden = !values.hidden
    if (values.hidden) return
    fill(values, h('p', { class: 'status' }, 'Counting…'))
    const c = ctx()
    const top = await topValues(name, c).catch((e: unknown) => (e as Error).message)
    if (typeof top === 'string') return void fill(values, h('p', { class: 'error' }, top))
    fill(values, valueList(name, c, top, total()))
  }
  const head = h(
    'button',
    { type: 'button', class: 'field-name', 'data-field': name, onclick: () => void open() },
    h('span', { class: 'kind' }, kind),
    name,
  )
  return h('li', {}, head, values)
}

/**
 * The list for `source` (`L::name`); `ctx` and `total` are read when a field opens, so the
 * counts follow the filters and range the rows were last read with.
 */
export async function fieldList(
  source: string,
  ctx: () => FieldContext,
  total: () => number,
): Promise<HTMLElement> {
  const box = h('nav', { id: 'log-fields', class: 'fields-list' }, h('h2', {}, 'Fields'))
  const cols = await call<Columns>(`columns?source=${encodeURIComponent(source)}`).catch(() => null)
  if (!cols) return box
  const items = [
    ...cols.tags.map((t): [string, string] => [t, 't']),
    ...cols.fields.map((f): [string, string] => [f.name, f.type === 'VARCHAR' ? 'a' : '#']),
  ].filter(([n]) => !SKIP.has(n))
  const list = h(
    'ul',
    {},
    ...items.slice(0, MAX_FIELDS).map(([n, k]) => fieldItem(n, k, ctx, total)),
  )
  box.append(list)
  if (items.length > MAX_FIELDS)
    box.append(h('p', { class: 'status' }, `${items.length - MAX_FIELDS} more not listed`))
  return box
}
