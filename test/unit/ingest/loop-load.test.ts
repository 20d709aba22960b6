/**
 * The HTTP thread's load decides where a small write is decoded: a loop kept busy for a window
 * reads as saturated and sends bodies to the pool, but only while a core is spare for a worker;
 * an idle window reads as free again. Until a first window has passed the thread counts as free.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { ALWAYS_INLINE_BYTES, inlineFirst } from '../../../src/ingest/inline-first.js'
import { InlineDecoder } from '../../../src/ingest/inline.js'
import { LoopLoad, MIN_SPARE_CORES } from '../../../src/ingest/loop-load.js'
import { plainTask, type DecodeOk, type DecodeTask } from '../../../src/ingest/protocol.js'

function spin(ms: number): void {
  const end = performance.now() + ms
  while (performance.now() < end) {
    // keep the event loop busy
  }
}

test('a busy window reads as saturated, an idle one as free', async () => {
  const load = new LoopLoad(0.5, 100, { cores: () => 1 })
  assert.equal(load.saturated(), false)
  await sleep(0) // the busy time below must fall in a measured turn of the loop
  spin(300)
  await sleep(0)
  assert.equal(load.saturated(), true)
  // Idle: polled until a window passes with the loop mostly waiting (a loaded machine may
  // stretch a turn, so a few windows are allowed).
  let free = false
  for (let i = 0; i < 50 && !free; i++) {
    await sleep(150)
    free = !load.saturated()
  }
  assert.ok(free)
})

test('a busy thread with no core to spare keeps its writes: the hand-off would only add CPU', async () => {
  let spare = MIN_SPARE_CORES - 0.01
  const load = new LoopLoad(0.5, 100, { cores: () => spare })
  await sleep(0)
  spin(300)
  await sleep(0)
  assert.equal(load.saturated(), false)
  spare = MIN_SPARE_CORES
  assert.equal(load.saturated(), true)
})

test('a saturated thread hands small writes to the pool, but not the smallest; a free one decodes them here', async () => {
  const inner = new InlineDecoder()
  let calls = 0
  const pool = {
    decode(t: DecodeTask): Promise<DecodeOk> {
      calls++
      return inner.decode(t)
    },
  }
  let saturated = true
  const d = inlineFirst(pool, null, { load: { saturated: () => saturated } })
  const line = 'm,t=a f=1i 1700000000000000000\n'
  const body = line.repeat(Math.ceil((ALWAYS_INLINE_BYTES + 1) / line.length))
  const task = () => plainTask(Buffer.from(body), 'metric', { now: 1n })
  const viaPool = await d.decode(task())
  assert.equal(calls, 1)
  // At most ALWAYS_INLINE_BYTES: here even when saturated (the hand-off costs more).
  await d.decode(plainTask(Buffer.from(line.repeat(10)), 'metric', { now: 1n }))
  assert.equal(calls, 1)
  saturated = false
  assert.deepEqual(await d.decode(task()), viaPool)
  assert.equal(calls, 1)
})
