/** Per-category counters of what the buffer holds, kept in memory and rebuilt at start-up. */
import { CATEGORY_NAMES, type Category } from '../../shared/category.js'
import type { BufferStats } from '../buffer.js'

export interface CategoryCounters {
  batches: number
  bytes: number
  points: number
  /** receivedAt (ms) of the oldest batch held, or null when empty. */
  oldest: number | null
}

export class CategoryStats {
  private readonly byCategory = new Map<Category, CategoryCounters>(
    CATEGORY_NAMES.map((c) => [c, { batches: 0, bytes: 0, points: 0, oldest: null }]),
  )

  get(c: Category): CategoryCounters {
    return this.byCategory.get(c)!
  }

  add(c: Category, bytes: number, points: number, receivedAt: number): void {
    const s = this.get(c)
    s.batches++
    s.bytes += bytes
    s.points += points
    if (s.oldest === null || receivedAt < s.oldest) s.oldest = receivedAt
  }

  remove(c: Category, bytes: number, points: number): void {
    const s = this.get(c)
    s.batches--
    s.bytes -= bytes
    s.points -= points
  }

  resetOldest(c: Category, receivedAt: number | undefined): void {
    this.get(c).oldest = receivedAt ?? null
  }

  total(): BufferStats {
    const t = { batches: 0, bytes: 0, points: 0 }
    for (const s of this.byCategory.values()) {
      t.batches += s.batches
      t.bytes += s.bytes
      t.points += s.points
    }
    return t
  }
}
