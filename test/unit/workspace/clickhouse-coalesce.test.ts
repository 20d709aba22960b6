/**
 * The coalescer the package log shares round trips with: an idle one sends at once, calls
 * made while batches are under way make the next batch (at most `inFlight` at a time, at most
 * `maxBatch` items each), every caller gets its own item's result, and a failed batch fails
 * each of its callers and no other.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Coalescer } from '../../../src/workspace/store/clickhouse/coalesce.js'

function gated() {
  const batches: number[][] = []
  const gates: (() => void)[] = []
  let running = 0
  let peak = 0
  const c = new Coalescer<number, number>(
    async (items) => {
      batches.push(items)
      peak = Math.max(peak, ++running)
      await new Promise<void>((r) => gates.push(r))
      running--
      if (items.includes(-1)) throw new Error('batch failed')
      return items.map((i) => i * 10)
    },
    2,
    3,
  )
  const open = async () => {
    while (!gates.length) await new Promise((r) => setImmediate(r))
    gates.shift()!()
  }
  return { c, batches, open, peak: () => peak }
}

test('calls queued behind two batches in flight go together, in batches of at most 3', async () => {
  const { c, batches, open, peak } = gated()
  const answers = [1, 2, 3, 4, 5, 6, 7].map((i) => c.call(i))
  assert.deepEqual(batches, [[1], [2]])
  for (let i = 0; i < 4; i++) await open()
  assert.deepEqual(await Promise.all(answers), [10, 20, 30, 40, 50, 60, 70])
  assert.deepEqual(batches, [[1], [2], [3, 4, 5], [6, 7]])
  assert.equal(peak(), 2)
})

test('a failed batch fails its own callers only', async () => {
  const { c, batches, open } = gated()
  const first = c.call(1)
  const failing = c.call(-1)
  const later = [c.call(2), c.call(3)]
  for (let i = 0; i < 3; i++) await open()
  assert.equal(await first, 10)
  await assert.rejects(failing, /batch failed/)
  assert.deepEqual(await Promise.all(later), [20, 30])
  assert.deepEqual(batches, [[1], [-1], [2, 3]])
})
