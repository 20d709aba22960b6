/** The key of a record in its category's sub-database, and reading the ends of a range. */
import type { Database } from 'lmdb'

/** `[seq, receivedAt, points, bytes]`: the key alone carries what statistics and pruning need. */
export type Key = [number, number, number, number]

export function firstKeyOf<K extends Key | number>(
  db: Database<unknown, K>,
  reverse = false,
): K | undefined {
  for (const k of db.getKeys({ limit: 1, reverse })) return k
  return undefined
}
