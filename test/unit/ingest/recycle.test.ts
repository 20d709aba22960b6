import assert from 'node:assert/strict'
import { EventEmitter } from 'node:events'
import { test } from 'node:test'
import type { Piscina } from 'piscina'
import { REAP_RETRY_MS, Recycler } from '../../../src/ingest/recycle.js'

/** The far side: a pool with one idle worker whose thread counts terminate() calls. */
function fakePool() {
  const pool = new EventEmitter() as EventEmitter & { threads: unknown[] }
  let terminations = 0
  pool.threads = [{ threadId: 7, terminate: async () => void terminations++ }]
  return { pool, terminations: () => terminations }
}

test('a retiring worker slow to exit is terminated once, not once per task that finishes', () => {
  const { pool, terminations } = fakePool()
  const recycled: number[] = []
  const r = new Recycler(100, (b) => recycled.push(b))
  r.attach(pool as unknown as Piscina)
  pool.emit('workerCreate', { id: 7, currentUsage: 0 })
  // The worker reports a heap past the limit, then other tasks finish while it has not exited.
  r.after({ ok: true, workerHeap: { thread: 7, bytes: 500 } })
  for (let i = 0; i < 20; i++) r.after({ ok: true, workerHeap: { thread: 8, bytes: 1 } })
  assert.equal(terminations(), 1)
  assert.deepEqual(recycled, [500])
  // Once it is gone, a new worker with the same id could be retired and ended again.
  pool.emit('workerDestroy', { id: 7, currentUsage: 0 })
  pool.emit('workerCreate', { id: 7, currentUsage: 0 })
  r.after({ ok: true, workerHeap: { thread: 7, bytes: 500 } })
  assert.equal(terminations(), 2)
})

/** A worker retired while busy: the pool handed it its next task before the mark was set. */
function retiredWhileBusy() {
  const { pool, terminations } = fakePool()
  const r = new Recycler(100)
  r.attach(pool as unknown as Piscina)
  const worker = { id: 7, currentUsage: 1 }
  pool.emit('workerCreate', worker)
  r.after({ ok: true, workerHeap: { thread: 7, bytes: 500 } })
  return { r, worker, terminations }
}

const aWhile = () => new Promise((res) => setTimeout(res, REAP_RETRY_MS * 3))

test('a retiring worker busy when marked is ended once idle, though no task finishes after it', async () => {
  const { r, worker, terminations } = retiredWhileBusy()
  assert.equal(terminations(), 0)
  // That task ends; its result goes nowhere near the recycler (it failed, say).
  worker.currentUsage = 0
  await aWhile()
  assert.equal(terminations(), 1)
  r.close()
})

test('closing stops the look-again timer', async () => {
  const { r, worker, terminations } = retiredWhileBusy()
  r.close()
  r.close()
  worker.currentUsage = 0
  await aWhile()
  assert.equal(terminations(), 0)
})
