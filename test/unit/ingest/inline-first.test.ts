/**
 * Small common writes decoded on the HTTP thread: the answer (points, payload, warnings, error)
 * is the pool's for any body; compressed, large, scripted or declined bodies go to the pool;
 * the watcher says which categories have scripts at its current version.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import zlib from 'node:zlib'
import fc from 'fast-check'
import { inlineFirst } from '../../../src/ingest/inline-first.js'
import { InlineDecoder } from '../../../src/ingest/inline.js'
import { plainTask, type DecodeOk, type DecodeTask } from '../../../src/ingest/protocol.js'
import { PipelineWatcher } from '../../../src/pipeline/watcher.js'
import { makeBody } from '../../../bench/corpus.js'

/** The pool stand-in: the real decode on this thread, counting the tasks it was given. */
function countingPool() {
  const inner = new InlineDecoder()
  const pool = {
    calls: 0,
    decode(t: DecodeTask): Promise<DecodeOk> {
      pool.calls++
      return inner.decode(t)
    },
  }
  return pool
}

const answer = (p: Promise<DecodeOk>) =>
  p.then(
    (ok) => ({ ok }),
    (e: unknown) => ({ e }),
  )

test('a small plain line protocol write is decoded here, with the pool answer', async () => {
  const pool = countingPool()
  const d = inlineFirst(pool, null)
  const body = makeBody(100)
  const task = () => plainTask(Buffer.from(body), 'metric', { now: 1n })
  const here = await d.decode(task())
  assert.equal(pool.calls, 0)
  assert.equal(here.points, 100)
  assert.deepEqual(here, await new InlineDecoder().decode(task()))
})

test('compressed, large, scripted and declined bodies go to the pool', async () => {
  const pool = countingPool()
  const scripted = inlineFirst(pool, (category, version) => category === 'logging' && version === 3)
  const lp = Buffer.from('m,t=a f=1i 1700000000000000000')
  await scripted.decode(plainTask(zlib.gzipSync(lp), 'metric', { encoding: 'gzip' }))
  await inlineFirst(pool, null, { maxBytes: 8 }).decode(plainTask(lp, 'metric'))
  await scripted.decode(plainTask(lp, 'logging', { pipeline: { version: 3, source: null } }))
  await inlineFirst(pool, null).decode(
    plainTask(lp, 'logging', { pipeline: { version: 1, source: null } }),
  )
  await scripted.decode(plainTask(Buffer.from('m,t=a f="x" 1'), 'metric')) // a string dropped
  assert.equal(pool.calls, 5)
  await scripted.decode(plainTask(lp, 'metric', { pipeline: { version: 3, source: null } }))
  assert.equal(pool.calls, 5)
})

test('any body: the same answer or the same error as the pool alone', async () => {
  const chars = fc.constantFrom(...'m,t=a f1i "\\\n.0u'.split(''))
  await fc.assert(
    fc.asyncProperty(fc.string({ unit: chars, maxLength: 80 }), async (text) => {
      const task = () => plainTask(Buffer.from(text), 'metric', { now: 5n })
      const mixed = await answer(inlineFirst(countingPool(), null).decode(task()))
      const alone = await answer(new InlineDecoder().decode(task()))
      assert.deepEqual(mixed, alone)
    }),
    { numRuns: 300 },
  )
})

test('the watcher: scripts by category at its current version only', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-inline-'))
  fs.mkdirSync(path.join(dir, 'logging'))
  fs.writeFileSync(path.join(dir, 'logging', 'nginx.js'), "cast('status', 'int')\n")
  const events = { compileFailed() {}, loaded() {} }
  const limits = { memoryBytes: 32 << 20, stackBytes: 256 << 10, batchTimeoutMs: 1000 }
  const w = new PipelineWatcher(dir, { ...limits, timezone: 'UTC', reloadMs: 60_000 }, events)
  await w.start()
  try {
    assert.equal(w.version(), 1)
    assert.equal(w.mayApply('logging', 1), true)
    assert.equal(w.mayApply('metric', 1), false)
    assert.equal(w.mayApply('metric', 2), true)
  } finally {
    await w.shutdown()
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
