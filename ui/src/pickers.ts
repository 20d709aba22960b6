/**
 * Explore's pickers, from the workspace catalog: a source (every stored measurement, by
 * namespace), one of its fields, an aggregate and a tag to group by. "Use" writes the query
 * into the editor and runs it, so a first chart needs no DQL typed.
 */
import { columnsOf, sourceNames } from './catalog.js'
import { fill, h, select } from './dom.js'

const AGGS: [string, string][] = ['avg', 'max', 'min', 'sum', 'count', 'last'].map((a) => [a, a])

/** `M::cpu:(avg(usage_user)) BY host`, or without BY when no tag is chosen. */
export function pickedQuery(source: string, agg: string, field: string, tag: string): string {
  return `${source}:(${agg}(${field}))${tag ? ` BY ${tag}` : ''}`
}

export async function pickers(use: (query: string) => void): Promise<HTMLElement> {
  const names = await sourceNames()
  const source = select(
    'pick-source',
    names.map((n) => [n, n]),
    names[0] ?? '',
  )
  const field = select('pick-field', [], '')
  const agg = select('pick-agg', AGGS, 'avg')
  const tag = select('pick-tag', [], '')
  const load = async () => {
    const cols = await columnsOf(source.value)
    const numeric = cols.fields.filter((f) => f.type !== 'VARCHAR')
    fill(
      field,
      ...(numeric.length ? numeric : cols.fields).map((f) =>
        h('option', { value: f.name }, f.name),
      ),
    )
    fill(
      tag,
      h('option', { value: '' }, '(no BY)'),
      ...cols.tags.map((t) => h('option', { value: t }, `BY ${t}`)),
    )
  }
  source.addEventListener('change', () => void load())
  if (names.length) await load()
  const go = () => use(pickedQuery(source.value, agg.value, field.value, tag.value))
  const button = h('button', { type: 'button', id: 'pick-use', onclick: go }, 'Use')
  for (const [el, label] of [
    [source, 'source'],
    [agg, 'aggregate'],
    [field, 'field'],
    [tag, 'group by'],
  ] as const)
    el.setAttribute('aria-label', label)
  const lead = h('span', { class: 'status' }, 'Chart a field:')
  return h('div', { class: 'toolbar', id: 'pickers' }, lead, source, agg, field, tag, button)
}
