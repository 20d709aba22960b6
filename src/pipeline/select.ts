/**
 * Which script a point runs (reference order): the write's `source` (or `pipeline_source`)
 * parameter for every point of the body (`-` turns the pipeline off), else the category's
 * key (the measurement; RUM `<app_id>_<measurement>`; tracing and profiling `service`;
 * security `category`; keyevent `df_source`), else the category default.
 */
import type { Point } from '../shared/point.js'

export interface Selection {
  /** The write's script parameter; null when absent. */
  source: string | null
  /** The category's default script (`[pipeline.default_pipeline]`), or null. */
  fallback: string | null
  has: (name: string) => boolean
}

function tagOrField(p: Point, key: string): string | undefined {
  const t = p.tags.find((x) => x.key === key)
  if (t) return t.value
  const f = p.fields.find((x) => x.key === key)
  return typeof f?.value === 'string' ? f.value : undefined
}

export function keyOf(category: string, p: Point): string | undefined {
  switch (category) {
    case 'rum': {
      const app = tagOrField(p, 'app_id')
      return app ? `${app}_${p.name}` : undefined
    }
    case 'tracing':
    case 'profiling':
      return tagOrField(p, 'service')
    case 'security':
      return tagOrField(p, 'category')
    case 'keyevent':
      return tagOrField(p, 'df_source')
    default:
      return p.name
  }
}

export function selectScript(category: string, p: Point, s: Selection): string | null {
  if (s.source !== null) return s.source === '-' || !s.has(s.source) ? null : s.source
  const key = keyOf(category, p)
  if (key !== undefined && s.has(key)) return key
  return s.fallback !== null && s.has(s.fallback) ? s.fallback : null
}
