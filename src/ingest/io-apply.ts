/**
 * `[io]` in the decode worker, after the pipeline (as the reference agent: filters, then time
 * correction), so filters see the points as they would be stored.
 *
 * Invariants: compiled filters are cached per (category, filter strings), so a task pays only
 * for evaluation; the cache is bounded (cleared past a few dozen entries, as only a config
 * change makes new ones). A re-timed point gets the INT field `__orig_time` (ns) unless it has
 * that key already, and `time` = the task's `now`.
 */
import { compileFilters, type PointPredicate } from '../shared/filter/evaluate.js'
import type { Category } from '../shared/category.js'
import { Kind, type Point } from '../shared/point.js'
import type { IoTask } from './io.js'

/** Points more than this far from now are re-timed (the reference agent's 2h). */
export const CORRECT_BEYOND_NS = 2n * 3600n * 1_000_000_000n

const cache = new Map<string, PointPredicate>()

function predicate(category: Category, filters: readonly string[]): PointPredicate {
  const key = `${category}\0${filters.join('\0')}`
  let p = cache.get(key)
  if (!p) {
    if (cache.size >= 64) cache.clear()
    cache.set(key, (p = compileFilters(filters, category)))
  }
  return p
}

function retime(points: Point[], now: bigint): number {
  let n = 0
  for (const p of points) {
    const t = p.time ?? now
    const off = t > now ? t - now : now - t
    if (off <= CORRECT_BEYOND_NS) continue
    if (!p.fields.some((f) => f.key === '__orig_time')) {
      const safe = t <= BigInt(Number.MAX_SAFE_INTEGER) && t >= BigInt(Number.MIN_SAFE_INTEGER)
      p.fields.push({ key: '__orig_time', kind: Kind.INT, value: safe ? Number(t) : t })
    }
    p.time = now
    n++
  }
  return n
}

export interface IoOutcome {
  points: Point[]
  filtered: number
  retimed: number
}

export function applyIo(points: Point[], category: Category, io: IoTask, now: bigint): IoOutcome {
  let kept = points
  if (io.filters.length) {
    const drop = predicate(category, io.filters)
    kept = points.filter((p) => !drop(p))
  }
  const retimed = io.correctTimes ? retime(kept, now) : 0
  return { points: kept, filtered: points.length - kept.length, retimed }
}
