/**
 * Bodies an upstream refused for good (4xx other than 408/429): their description and the
 * answer, kept for the operator, bounded to `max` entries with the oldest evicted. Their points
 * are counted as dropped by the caller.
 */
import type { Database } from 'lmdb'
import type { DeadLetter } from '../buffer.js'

export class DeadLetters {
  private next: number

  constructor(private readonly db: Database<DeadLetter, number>) {
    let last = 0
    for (const k of db.getKeys({ limit: 1, reverse: true })) last = k
    this.next = last + 1
  }

  async add(d: DeadLetter, max: number): Promise<void> {
    await this.db.put(this.next++, d)
    const excess = this.db.getCount() - max
    if (excess > 0) {
      const old = [...this.db.getKeys({ limit: excess })]
      await this.db.transaction(() => old.forEach((k) => this.db.remove(k)))
    }
  }

  all(): DeadLetter[] {
    return [...this.db.getRange()].map((e) => e.value)
  }
}
