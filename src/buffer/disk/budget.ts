/**
 * The disk buffer's size limits: bytes per category, bytes across every category, and free
 * disk to leave. The total exists because the per-category limit times ten categories can
 * exceed the volume the buffer lives on (a container's emptyDir has a size limit that statfs
 * does not show, so `min_free_disk` alone cannot protect it).
 */
import { CATEGORY_NAMES, type Category } from '../../shared/category.js'
import type { CategoryStats } from './stats.js'

export interface Budget {
  maxBytesPerCategory: number
  /** Bytes across all categories; absent means no total limit. */
  maxTotalBytes?: number
  minFreeDisk: number
}

/** What is in use when a batch asks for room. */
export interface Held {
  /** Bytes of the category being written. */
  category: number
  /** Bytes of every category. */
  total: number
  freeDisk: number
}

export function fits(b: Budget, held: Held, need: number): boolean {
  return (
    held.category + need <= b.maxBytesPerCategory &&
    held.total + need <= (b.maxTotalBytes ?? Infinity) &&
    held.freeDisk - need >= b.minFreeDisk
  )
}

/**
 * Where `drop_oldest` takes from: the written category itself when it is over its own limit or
 * the disk is short (as before the total existed), else, when only the total is reached, the
 * category holding the oldest batch, so the data dropped is the oldest there is.
 */
export function victimCategory(
  b: Budget,
  held: Held,
  need: number,
  own: Category,
  stats: CategoryStats,
): Category | undefined {
  const ownFull =
    held.category + need > b.maxBytesPerCategory || held.freeDisk - need < b.minFreeDisk
  if (ownFull && stats.get(own).batches > 0) return own
  let oldest: Category | undefined
  for (const c of CATEGORY_NAMES) {
    const s = stats.get(c)
    if (!s.batches || s.oldest === null) continue
    if (oldest === undefined || s.oldest < stats.get(oldest).oldest!) oldest = c
  }
  return oldest
}
