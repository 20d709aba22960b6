/**
 * The share of corpus points the byte-level transcoder takes, measured the way a decode worker
 * decides: each body decompressed, then `tryFast` on a metric task with a global host tag. A
 * body is transcoded whole or not at all, so the share is over many seeded bodies of the case.
 */
import { decompress } from '../../src/decode/decompress.js'
import { tryFast } from '../../src/ingest/fast.js'
import { plainTask } from '../../src/ingest/protocol.js'
import type { Category } from '../../src/shared/category.js'

export interface ShareCase {
  category: Category
  encoding: string
  points: number
  /** The case's body for a seed (the load itself sends seed 1). */
  body(seed: number): Buffer
}

const BODIES = 40

export async function fastShare(c: ShareCase): Promise<number> {
  let fast = 0
  for (let seed = 1; seed <= BODIES; seed++) {
    const raw = c.body(seed * 997)
    const task = plainTask(raw, c.category, {
      encoding: c.encoding,
      extraTags: [['host', 'bench']],
      maxPoints: 250_000,
    })
    const body = decompress(c.encoding, raw, 64 << 20)
    const r = await tryFast(task, body, null)
    if (r) fast += r.points
  }
  return fast / (BODIES * c.points)
}
