/**
 * What the buffer remembers besides records, in its `meta` sub-database:
 * - its identity: random, drawn once when the buffer is created, kept for its lifetime (and by
 *   a salvage, which copies `meta`), so package ids built from it never collide with another
 *   buffer's;
 * - cursors: per reader (upstream and category), every record with `seq <= cursor` is done;
 * - plans: per reader, the last seq (and the body size) of the window it is delivering. A
 *   window read again after a crash ends where the plan says, so it is cut into the same bodies
 *   and each body carries the same package id as before the crash.
 */
import { randomBytes } from 'node:crypto'
import type { Database } from 'lmdb'
import type { Plan } from '../buffer.js'

/** A plan is `[end, maxRaw]`, or `[end, maxRaw, sinkKeys]` when grouped by the sinker. */
export type PositionValue = number | [number, number] | [number, number, string[]]
type Value = string | PositionValue

const ID_KEY = 'identity'
/** Seqs up to this were handed out before a salvage; new records go above it. */
const FLOOR_KEY = 'floor'

export class Positions {
  constructor(private readonly meta: Database<Value, string>) {}

  /** The identity this buffer already has, if any. */
  existingIdentity(): string | null {
    const have = this.meta.get(ID_KEY)
    return typeof have === 'string' ? have : null
  }

  /** The buffer's identity, created on first use (or given, by a salvage). */
  async identity(given?: string): Promise<string> {
    const have = this.existingIdentity()
    if (have) return have
    const id = given ?? randomBytes(12).toString('hex')
    await this.meta.put(ID_KEY, id)
    return id
  }

  /** Every cursor and plan, as the ledger keeps them. */
  entries(): Record<string, PositionValue> {
    const out: Record<string, PositionValue> = {}
    for (const { key, value } of this.meta.getRange())
      if (key.startsWith('cursor:') || key.startsWith('plan:')) out[key] = value as number
    return out
  }

  /** Puts back cursors and plans (from a ledger) and the seq floor, in one transaction. */
  async restore(entries: Record<string, PositionValue>, floor: number): Promise<void> {
    await this.meta.transaction(() => {
      for (const [k, v] of Object.entries(entries)) void this.meta.put(k, v)
      void this.meta.put(FLOOR_KEY, floor)
    })
  }

  /**
   * The highest seq any cursor has passed or any plan has covered. New records must get higher
   * seqs even when every record was pruned or dropped: a seq that was ever sent must never name
   * other content, or a body would be taken for a duplicate of one it does not match.
   */
  highestSeen(): number {
    const floor = this.meta.get(FLOOR_KEY)
    let max = typeof floor === 'number' ? floor : 0
    for (const { key, value } of this.meta.getRange()) {
      if (key.startsWith('cursor:') && typeof value === 'number') max = Math.max(max, value)
      if (key.startsWith('plan:') && Array.isArray(value)) max = Math.max(max, value[0])
    }
    return max
  }

  cursor(name: string): number {
    const v = this.meta.get(`cursor:${name}`)
    return typeof v === 'number' ? v : 0
  }

  async setCursor(name: string, seq: number): Promise<void> {
    await this.meta.put(`cursor:${name}`, seq)
  }

  plan(name: string): Plan | null {
    const v = this.meta.get(`plan:${name}`)
    if (!Array.isArray(v)) return null
    return v.length > 2 ? { end: v[0], maxRaw: v[1], sinkKeys: v[2] } : { end: v[0], maxRaw: v[1] }
  }

  /** Resolves once the plan is committed: it must be on disk before the first send. */
  async setPlan(name: string, plan: Plan): Promise<void> {
    const v: PositionValue = plan.sinkKeys
      ? [plan.end, plan.maxRaw, plan.sinkKeys]
      : [plan.end, plan.maxRaw]
    await this.meta.put(`plan:${name}`, v)
  }
}
