/**
 * The workspace catalog as the studio reads it: the stored sources by namespace and each
 * source's fields and tags, each fetched once per page load and shared by Explore's pickers and
 * the query box's completion. The sources are fetched again after a minute, so a measurement
 * written while the page is open shows up.
 */
import { call } from './api.js'

export interface Columns {
  fields: { name: string; type: string }[]
  tags: string[]
}

const SOURCES_TTL_MS = 60_000
/** Sources whose columns are kept: a page rarely looks at more. */
const MAX_COLUMNS = 200

let sources: { at: number; list: Promise<string[]> } | null = null
const columns = new Map<string, Promise<Columns>>()

/** Every stored source as `NS::name`, metrics first (the sources a chart is most drawn from). */
export function sourceNames(): Promise<string[]> {
  if (sources && Date.now() - sources.at < SOURCES_TTL_MS) return sources.list
  const list = call<Record<string, string[]>>('sources').then((stored) =>
    Object.entries(stored)
      .sort(([a], [b]) => Number(a !== 'M') - Number(b !== 'M'))
      .flatMap(([ns, names]) => names.map((n) => `${ns}::${n}`)),
  )
  sources = { at: Date.now(), list }
  list.catch(() => (sources = null))
  return list
}

/** A source's fields and tags (empty when it is not stored). */
export function columnsOf(source: string): Promise<Columns> {
  const cached = columns.get(source)
  if (cached) return cached
  if (columns.size >= MAX_COLUMNS) columns.clear()
  const got = call<Columns>(`columns?source=${encodeURIComponent(source)}`).catch(() => {
    columns.delete(source)
    return { fields: [], tags: [] }
  })
  columns.set(source, got)
  return got
}
