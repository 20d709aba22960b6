/**
 * The start-up scan: every record is verified; damaged ones are reported (category and seq),
 * counted and removed; statistics and the highest seq per category are rebuilt from the keys;
 * and the buffer is held against its ledger (ledger.ts).
 */
import type { Database } from 'lmdb'
import type { Category } from '../../shared/category.js'
import type { Key } from './keys.js'
import { decodeRecord } from './record.js'
import type { CategoryStats } from './stats.js'
import type { BufferEvents } from './types.js'
import { FerryError } from '../../errors.js'
import type { EnvHandles } from './handles.js'
import { ledgerMismatch, readLedger } from './ledger.js'

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

/**
 * What a start settles before any write: the buffer's identity, every record verified, and the
 * next seq. A buffer that holds less than its ledger says is damaged (`bufferDamaged`).
 */
export async function settle(
  h: EnvHandles,
  path: string,
  stats: CategoryStats,
  lastSeqOf: Map<Category, number>,
  events: BufferEvents,
): Promise<{ identity: string; seq: number }> {
  const before = h.positions!.existingIdentity()
  const identity = await h.positions!.identity()
  const highest = await verifyRecords(h.dbs, stats, lastSeqOf, events)
  // Pruned records leave no key behind, so the next seq must also pass every cursor (or a new
  // record could hide behind one and never be sent) and every planned window (positions.ts).
  const seq = Math.max(highest, h.positions!.highestSeen()) + 1
  const mismatch = ledgerMismatch(readLedger(path), before, seq)
  if (mismatch) throw new FerryError('bufferDamaged', `buffer at ${path} is damaged: ${mismatch}`)
  return { identity, seq }
}
