/**
 * What a tap shows: its filter (`key=value` or `key!=value` conditions joined by commas, all of
 * which must hold; `measurement` names the measurement, any other key a tag or field, compared
 * as text), its sample rate, and one line per point as line protocol or JSON.
 */
import { decodePoints } from '../decode/codec/protobuf-decode.js'
import { toJsonPoint, toLineProtocol } from '../decode/codec/echo.js'
import { FerryError } from '../errors.js'
import type { Point } from '../shared/point.js'
import type { TapBatch } from './tap.js'

export interface Condition {
  key: string
  equal: boolean
  value: string
}

export interface TapView {
  filter: Condition[]
  format: 'lp' | 'json'
  /** Share of points shown, (0, 1]. */
  sample: number
  random?: () => number
}

export function parseFilter(text: string): Condition[] {
  if (!text.trim()) return []
  return text.split(',').map((part) => {
    const m = /^\s*([^!=\s]+)\s*(!?=)\s*(.*?)\s*$/.exec(part)
    if (!m) throw new FerryError('badRequest', `filter: expected key=value or key!=value: ${part}`)
    return { key: m[1], equal: m[2] === '=', value: m[3] }
  })
}

function valueOf(p: Point, key: string): string | undefined {
  if (key === 'measurement') return p.name
  const tag = p.tags.find((t) => t.key === key)
  if (tag) return tag.value
  const field = p.fields.find((f) => f.key === key)
  return field && field.value !== null ? String(field.value) : undefined
}

export function matches(p: Point, filter: Condition[]): boolean {
  return filter.every((c) => (valueOf(p, c.key) === c.value) === c.equal)
}

/** The lines of one batch (each ending in a newline); empty when nothing passes. */
export function formatBatch(b: TapBatch, v: TapView): string {
  const random = v.random ?? Math.random
  let out = ''
  for (const p of decodePoints(b.payload)) {
    if (v.sample < 1 && random() >= v.sample) continue
    if (!matches(p, v.filter)) continue
    out +=
      v.format === 'lp'
        ? `${toLineProtocol(p)}\n`
        : `{"category":${JSON.stringify(b.category)},${toJsonPoint(p).slice(1)}\n`
  }
  return out
}
