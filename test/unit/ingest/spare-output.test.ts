/**
 * Spare payload buffers for decode workers: the worker's source takes the task's spare once,
 * only when it holds the payload and is at most twice its size class; the HTTP thread lends an
 * idle buffer of the size earlier results say the payload will need, and never allocates one.
 */
import assert from 'node:assert/strict'
import { afterEach, test } from 'node:test'
import { BufferPool, sizeClass } from '../../../src/shared/buffer-pool.js'
import { PAYLOAD_ROOM } from '../../../src/shared/payload-room.js'
import {
  offerSpare,
  spareSource,
  SpareOutputs,
  unusedSpare,
} from '../../../src/ingest/spare-output.js'

const KiB = 1024

afterEach(() => offerSpare(null))

test('a fitting spare is used once; the next payload gets a fresh buffer of a size class', () => {
  const spare = new ArrayBuffer(48 * KiB)
  offerSpare(spare)
  assert.ok(spareSource(40 * KiB) === spare)
  const next = spareSource(40 * KiB)
  assert.ok(next !== spare)
  assert.equal(next.byteLength, sizeClass(40 * KiB))
  assert.equal(unusedSpare(), null, 'taken: nothing to send back')
})

test('a spare too small, or more than twice the class, stays unused and goes back', () => {
  for (const [size, need] of [
    [32 * KiB, 40 * KiB],
    [256 * KiB, 40 * KiB],
  ]) {
    const spare = new ArrayBuffer(size)
    offerSpare(spare)
    assert.ok(spareSource(need) !== spare)
    assert.ok(unusedSpare() === spare)
    assert.equal(unusedSpare(), null, 'handed back once')
  }
})

test('the HTTP thread lends an idle buffer of the learnt size, per encoding, never a new one', () => {
  const pool = new BufferPool(16 * 2 ** 20)
  const spares = new SpareOutputs(pool)
  assert.equal(spares.take(300 * KiB, ''), null, 'nothing idle: nothing lent')
  const plainClass = sizeClass(PAYLOAD_ROOM + 1.2 * 300 * KiB)
  pool.give(new ArrayBuffer(plainClass))
  assert.equal(spares.take(300 * KiB, '')?.byteLength, plainClass)
  // A gzip body of 40 KiB that gave a 376 KiB payload: the next one gets that class.
  spares.learn(40 * KiB, 'gzip', 376 * KiB)
  const gzClass = sizeClass(PAYLOAD_ROOM + 376 * KiB)
  pool.give(new ArrayBuffer(gzClass))
  assert.equal(spares.take(40 * KiB, 'gzip')?.byteLength, gzClass)
  assert.equal(pool.bytes, 0)
  spares.giveBack(new ArrayBuffer(gzClass))
  assert.equal(pool.bytes, gzClass)
})

test('without a pool nothing is lent', () => {
  assert.equal(new SpareOutputs(undefined).take(1000, ''), null)
})
