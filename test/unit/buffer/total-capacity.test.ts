/**
 * The buffer's total budget across categories (`[dataway.wal] max_total_capacity_gb`): each
 * `when_full` policy applies when all categories together reach it, even while every one of
 * them is under its own limit.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import type { Batch } from '../../../src/buffer/buffer.js'
import { DiskBuffer } from '../../../src/buffer/disk/disk-buffer.js'
import type { WhenFull } from '../../../src/buffer/disk/types.js'
import type { Category } from '../../../src/shared/category.js'
import { FerryError } from '../../../src/errors.js'

// One ~230-byte record per batch: two fit in 500 bytes, three do not.
const TOTAL = 500

function newBuffer(whenFull: WhenFull) {
  const dropped: [string, string, number][] = []
  const buf = new DiskBuffer(
    {
      path: fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-total-')),
      durability: 'async',
      maxBytesPerCategory: 1 << 30,
      maxTotalBytes: TOTAL,
      whenFull,
      minFreeDisk: 0,
    },
    {
      committed: () => {},
      pointsDropped: (c, r, n) => void dropped.push([c, r, n]),
      recordDamaged: () => {},
      storageFailed: () => {},
      recordsLost: () => {},
    },
  )
  return { buf, dropped }
}

// Distinct arrival times, so "oldest" never depends on two pushes sharing a millisecond.
let arrival = Date.now()
const batch = (category: Category, marker: string, points: number): Batch => ({
  category,
  payload: Buffer.from(marker.repeat(200)),
  points,
  input: 'test',
  receivedAt: arrival++,
})

test('total reached, reject: 503 bufferFull, everything kept', async () => {
  const { buf } = newBuffer('reject')
  await buf.start()
  await buf.push(batch('metric', 'A', 1))
  await buf.push(batch('logging', 'B', 1))
  await assert.rejects(
    buf.push(batch('object', 'C', 1)),
    (e: unknown) =>
      e instanceof FerryError && e.code === 'bufferFull' && /in all categories/.test(e.message),
  )
  assert.equal(buf.stats().batches, 2)
  await buf.shutdown()
})

test('total reached, drop_oldest: the oldest batch of any category goes', async () => {
  const { buf, dropped } = newBuffer('drop_oldest')
  await buf.start()
  await buf.push(batch('metric', 'A', 3))
  await buf.push(batch('logging', 'B', 4))
  await buf.push(batch('logging', 'C', 5))
  assert.deepEqual(dropped, [['metric', 'buffer_full_drop_oldest', 3]])
  assert.equal(buf.read('metric', 0, 1 << 20).length, 0)
  assert.deepEqual(
    buf.read('logging', 0, 1 << 20).map((b) => b.points),
    [4, 5],
  )
  assert.ok(buf.stats().bytes <= TOTAL)
  await buf.shutdown()
})

test('total reached, drop_newest: the new batch is dropped and counted', async () => {
  const { buf, dropped } = newBuffer('drop_newest')
  await buf.start()
  await buf.push(batch('metric', 'A', 3))
  await buf.push(batch('logging', 'B', 4))
  await buf.push(batch('rum', 'C', 5))
  assert.deepEqual(dropped, [['rum', 'buffer_full_drop_newest', 5]])
  assert.equal(buf.stats().batches, 2)
  await buf.shutdown()
})
