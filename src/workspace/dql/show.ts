/**
 * The `show_*()` functions, answered in the usual result envelope from the catalog, and for
 * tag values from the data through an ordinary `distinct()` query (so the request's time_range
 * and max_duration apply, and every engine answers it). Namespaces: `show_measurement`,
 * `show_tag_key`, `show_tag_value`, `show_field_key` for metrics; `show_<ns>_source` (and the
 * deprecated `_class`, `_service`, `_type` spellings) and `show_<ns>_field` for the others.
 */
import type { Category } from '../../shared/category.js'
import { queryError } from './lexer.js'
import { nameFilter, parseShow, type ShowCall } from './show-args.js'
import type { Column } from '../store/catalog.js'
import type { TableCatalog as Catalog } from '../store/engine.js'
import { tableName } from '../store/names.js'

const NS: Record<string, Category> = {
  logging: 'logging',
  object: 'object',
  custom_object: 'custom_object',
  cobject: 'custom_object',
  event: 'keyevent',
  tracing: 'tracing',
  profiling: 'profiling',
  rum: 'rum',
  network: 'network',
  security: 'security',
}

export interface ShowSeries {
  name: string
  columns: string[]
  values: unknown[][]
}

/** Runs `M::src:(distinct(key))` with the request's options; the caller's query path. */
export type DistinctRun = (query: string) => Promise<unknown[]>

const TYPE_NAMES = { DOUBLE: 'float', BOOLEAN: 'boolean', VARCHAR: 'string' }

function sources(catalog: Catalog, ws: string, category: Category): string[] {
  const prefix = tableName(category, '')
  return catalog
    .tableNames(ws)
    .filter((t) => t.startsWith(prefix))
    .map((t) => t.slice(prefix.length))
    .sort()
}

const quote = (name: string) => `\`${name.replace(/[\\`]/g, (c) => `\\${c}`)}\``

function columnsOf(catalog: Catalog, ws: string, cat: Category, src: string): Column[] {
  return catalog.table(ws, tableName(cat, src))?.columns ?? []
}

function fields(cols: Column[], kind: 'tag' | 'field' | null): unknown[][] {
  return cols
    .filter((c) => kind === null || c.kind === kind)
    .map((c) => (kind === 'tag' ? [c.name] : [c.name, TYPE_NAMES[c.type]]))
}

export function isShow(query: string): boolean {
  return /^\s*show_\w+\s*\(/i.test(query)
}

export async function runShow(
  catalog: Catalog,
  ws: string,
  query: string,
  distinct: DistinctRun,
): Promise<ShowSeries[]> {
  const call = parseShow(query)
  if (call.name === 'show_measurement') return listSources(catalog, ws, 'metric', call)
  const from = () => sources(catalog, ws, 'metric').filter(nameFilter(call.named.from))
  if (call.name === 'show_tag_key' || call.name === 'show_field_key') {
    const kind = call.name === 'show_tag_key' ? 'tag' : 'field'
    const columns = kind === 'tag' ? ['tagKey'] : ['fieldKey', 'fieldType']
    return from()
      .map((m) => ({ name: m, columns, values: fields(columnsOf(catalog, ws, 'metric', m), kind) }))
      .filter((s) => s.values.length > 0)
  }
  if (call.name === 'show_tag_value') return tagValues(catalog, ws, call, from(), distinct)
  const m = /^show_(\w+?)_(source|class|service|type|field)$/.exec(call.name)
  const cat = m && NS[m[1]]
  if (!cat) throw queryError(call.pos, `unknown function ${call.name}()`)
  if (m[2] !== 'field') return listSources(catalog, ws, cat, call)
  const src = call.positional[0] ?? call.named.source ?? call.named.class
  if (typeof src !== 'string') throw queryError(call.pos, `${call.name}() takes a source name`)
  return [
    {
      name: 'fields',
      columns: ['fieldKey', 'fieldType'],
      values: fields(columnsOf(catalog, ws, cat, src), null),
    },
  ]
}

function listSources(catalog: Catalog, ws: string, cat: Category, call: ShowCall): ShowSeries[] {
  const keep = nameFilter(call.named.name ?? call.positional[0])
  const values = sources(catalog, ws, cat)
    .filter(keep)
    .map((n) => [n])
  return [{ name: 'measurements', columns: ['name'], values }]
}

async function tagValues(
  catalog: Catalog,
  ws: string,
  call: ShowCall,
  measurements: string[],
  distinct: DistinctRun,
): Promise<ShowSeries[]> {
  const keyin = nameFilter(call.named.keyin ?? call.named.key)
  const out: ShowSeries[] = []
  for (const m of measurements) {
    const values: unknown[][] = []
    const tags = columnsOf(catalog, ws, 'metric', m).filter(
      (c) => c.kind === 'tag' && keyin(c.name),
    )
    for (const t of tags)
      for (const v of await distinct(`M::${quote(m)}:(distinct(${quote(t.name)}))`))
        values.push([t.name, v])
    if (values.length) out.push({ name: m, columns: ['key', 'value'], values })
  }
  return out
}
