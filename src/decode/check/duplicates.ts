/**
 * Duplicate keys among a point's tags or fields: every copy is dropped with a warning (reference
 * key_name_conflict). The common case (no duplicates) returns the same array, allocating nothing.
 */
import { addWarn, type Point } from '../../shared/point.js'

/** Keys that occur more than once lose every copy (reference key_name_conflict). */
function hasDuplicates(items: { key: string }[]): boolean {
  const n = items.length
  if (n > 32) return new Set(items.map((it) => it.key)).size !== n
  for (let i = 1; i < n; i++) {
    const k = items[i].key
    for (let j = 0; j < i; j++) if (items[j].key === k) return true
  }
  return false
}

export function dropDuplicates<T extends { key: string }>(p: Point, items: T[]): T[] {
  if (!hasDuplicates(items)) return items
  const seen = new Map<string, number>()
  for (const it of items) seen.set(it.key, (seen.get(it.key) ?? 0) + 1)
  if (seen.size === items.length) return items
  return items.filter((it) => {
    if (seen.get(it.key) === 1) return true
    addWarn(p, 'key_name_conflict', `key ${JSON.stringify(it.key)} appears more than once, dropped`)
    return false
  })
}
