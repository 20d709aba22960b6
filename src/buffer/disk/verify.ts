/**
 * The start-up scan: every record is verified; damaged ones are reported (category and seq),
 * counted and removed; statistics and the highest seq per category are rebuilt from the keys.
 */
import type { Database } from 'lmdb'
import type { Category } from '../../shared/category.js'
import type { Key } from './keys.js'
import { decodeRecord } from './record.js'
import type { CategoryStats } from './stats.js'
import type { BufferEvents } from './types.js'

/** Fills `stats` and `lastSeqOf`; returns the highest seq seen (0 when empty). */
export async function verifyRecords(
  dbs: Map<Category, Database<Buffer, Key>>,
  stats: CategoryStats,
  lastSeqOf: Map<Category, number>,
  events: BufferEvents,
): Promise<number> {
  let highest = 0
  for (const [category, db] of dbs) {
    const damaged: Key[] = []
    for (const { key, value } of db.getRange()) {
      highest = Math.max(highest, key[0])
      lastSeqOf.set(category, Math.max(lastSeqOf.get(category) ?? 0, key[0]))
      try {
        decodeRecord(value)
        stats.add(category, key[3], key[2], key[1])
      } catch (e) {
        damaged.push(key)
        events.recordDamaged(category, key[0], (e as Error).message)
      }
    }
    if (damaged.length) await db.transaction(() => damaged.forEach((k) => db.remove(k)))
  }
  return highest
}
