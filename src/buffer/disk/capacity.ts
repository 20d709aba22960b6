/**
 * The buffer's limits at push time: per category, in total, and the free disk to keep. When a
 * batch does not fit, `when_full` decides: refuse it (503 with Retry-After), drop it, or drop
 * the oldest batches (of the category over its limit, else of the largest) until it fits.
 * Free disk is measured at most once a second.
 */
import fs from 'node:fs'
import type { Database } from 'lmdb'
import { FerryError } from '../../errors.js'
import { CATEGORY_NAMES, type Category } from '../../shared/category.js'
import type { Batch } from '../buffer.js'
import { fits, victimCategory, type Held } from './budget.js'
import { firstKeyOf, type Key } from './keys.js'
import type { CategoryStats } from './stats.js'
import type { BufferEvents, DiskBufferOptions } from './types.js'

export interface CapacityDeps {
  opts: DiskBufferOptions
  stats: CategoryStats
  events: BufferEvents
  db(category: Category): Database<Buffer, Key>
  /** Removes keys in one transaction (a storage failure becomes the buffer's 503). */
  remove(db: Database<Buffer, Key>, keys: Key[], op: string): Promise<void>
}

export class Capacity {
  private freeDiskAt = 0
  private freeDisk = Infinity

  constructor(private readonly d: CapacityDeps) {}

  private held(category: Category): Held {
    const s = this.d.stats
    return { category: s.get(category).bytes, total: s.total().bytes, freeDisk: this.freeDisk }
  }

  private room(category: Category, bytes: number): boolean {
    const now = Date.now()
    if (now - this.freeDiskAt > 1000) {
      this.freeDiskAt = now
      const st = fs.statfsSync(this.d.opts.path)
      this.freeDisk = st.bavail * st.bsize
    }
    return fits(this.d.opts, this.held(category), bytes)
  }

  /** Makes room per `when_full`; returns false when the new batch must be dropped. */
  async makeRoom(batch: Batch, bytes: number): Promise<boolean> {
    if (this.room(batch.category, bytes)) return true
    const held = this.held(batch.category)
    const why = `buffer for ${batch.category} is full (${held.category} bytes held, ${held.total} in all categories, free disk ${this.freeDisk})`
    if (this.d.opts.whenFull === 'reject')
      throw new FerryError('bufferFull', why, { retryAfter: 5 })
    if (this.d.opts.whenFull === 'drop_newest') {
      this.d.events.pointsDropped(batch.category, 'buffer_full_drop_newest', batch.points)
      return false
    }
    // Each round empties a category or makes room, so the loop is bounded.
    for (let round = 0; round < CATEGORY_NAMES.length; round++) {
      const now = this.held(batch.category)
      const victim = victimCategory(this.d.opts, now, bytes, batch.category, this.d.stats)
      if (!victim) break
      await this.dropOldest(victim, batch.category, bytes)
      if (fits(this.d.opts, this.held(batch.category), bytes)) break
    }
    return true
  }

  /** Drops `victim`'s oldest batches (at least one) until a batch of `need` fits `category`. */
  private async dropOldest(victim: Category, category: Category, need: number): Promise<void> {
    const db = this.d.db(victim)
    const victims: Key[] = []
    let freed = 0
    const held = this.held(category)
    for (const key of db.getKeys()) {
      const after = {
        category: held.category - (victim === category ? freed : 0),
        total: held.total - freed,
        freeDisk: held.freeDisk + freed,
      }
      if (victims.length && fits(this.d.opts, after, need)) break
      victims.push(key)
      freed += key[3]
    }
    await this.d.remove(db, victims, 'drop')
    for (const k of victims) {
      this.d.stats.remove(victim, k[3], k[2])
      this.d.events.pointsDropped(victim, 'buffer_full_drop_oldest', k[2])
    }
    this.d.stats.resetOldest(victim, firstKeyOf(db)?.[1])
    // LMDB reuses the freed pages for the next records, though statfs will not show them free.
    this.freeDisk += freed
  }
}
