/**
 * The one contract of a BatchBuffer (src/buffer/buffer.ts), run on every implementation: push
 * order and seqs, bounded reads, planned windows, cursors, pruning as the acknowledgement,
 * waiting for records, dead letters, the identity, and memory: a pushed payload's is the
 * caller's again once the push settles, a released window's never shows in a live one.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Batch, BatchBuffer } from '../../../src/buffer/buffer.js'
import type { Category } from '../../../src/shared/category.js'
import { PAYLOAD_ROOM, withRoom } from '../../../src/shared/payload-room.js'

const batch = (category: Category, marker: number, size = 100): Batch => ({
  category,
  payload: Buffer.alloc(size, marker),
  points: marker,
  input: 'test',
  receivedAt: 1_700_000_000_000 + marker,
})

const markers = (b: { payload: Uint8Array }[]) => b.map((x) => x.payload[0])

export function bufferContract(name: string, make: () => Promise<BatchBuffer>): void {
  const withBuffer = (title: string, fn: (b: BatchBuffer) => Promise<void>) =>
    test(`${name}: ${title}`, async () => {
      const b = await make()
      await b.start()
      try {
        await fn(b)
      } finally {
        await b.shutdown()
      }
    })

  withBuffer('records come back per category, in push order, with rising seqs', async (b) => {
    for (const [c, m] of [
      ['metric', 1],
      ['logging', 2],
      ['metric', 3],
    ] as const)
      await b.push(batch(c, m))
    const metric = b.read('metric', 0, 1 << 20)
    assert.deepEqual(markers(metric), [1, 3])
    assert.ok(metric[0].seq < metric[1].seq)
    assert.deepEqual(markers(b.read('logging', 0, 1 << 20)), [2])
    assert.deepEqual(b.stats(), { batches: 3, bytes: b.stats().bytes, points: 6 })
    assert.match(b.id, /^[0-9a-f]{24}$/)
  })

  withBuffer('a read is bounded by bytes but returns at least one record', async (b) => {
    for (const m of [1, 2, 3]) await b.push(batch('metric', m, 1000))
    assert.deepEqual(markers(b.read('metric', 0, 10)), [1])
    const all = b.read('metric', 0, 1 << 20)
    assert.deepEqual(markers(b.read('metric', all[0].seq, 1 << 20)), [2, 3])
    assert.deepEqual(
      markers(b.read('metric', 0, 10, all[1].seq)),
      [1, 2],
      'through a seq: whatever the size',
    )
  })

  withBuffer('cursors and plans are kept per reader', async (b) => {
    assert.equal(b.getCursor('a:metric'), 0)
    assert.equal(b.getPlan('a:metric'), null)
    await b.setCursor('a:metric', 7)
    await b.setPlan('a:metric', { end: 9, maxRaw: 1024 })
    assert.equal(b.getCursor('a:metric'), 7)
    assert.equal(b.getCursor('b:metric'), 0)
    assert.deepEqual(b.getPlan('a:metric'), { end: 9, maxRaw: 1024 })
    // The sinker's keys travel with the plan, so a window is grouped as planned.
    await b.setPlan('a:logging', { end: 4, maxRaw: 2048, sinkKeys: ['host', 'region'] })
    assert.deepEqual(b.getPlan('a:logging'), { end: 4, maxRaw: 2048, sinkKeys: ['host', 'region'] })
  })

  withBuffer('prune acknowledges: only records at or below the seq go', async (b) => {
    for (const m of [1, 2, 3]) await b.push(batch('metric', m))
    await b.push(batch('logging', 4))
    const [first, second] = b.read('metric', 0, 1 << 20)
    await b.prune('metric', second.seq)
    assert.deepEqual(markers(b.read('metric', 0, 1 << 20)), [3])
    assert.deepEqual(markers(b.read('logging', 0, 1 << 20)), [4])
    assert.ok(first.seq < second.seq)
    assert.equal(b.stats().batches, 2)
  })

  withBuffer('waitFor resolves on a newer record, or when aborted', async (b) => {
    const ac = new AbortController()
    let woke = false
    const waiting = b.waitFor('metric', 0, ac.signal).then(() => (woke = true))
    await b.push(batch('logging', 1))
    await new Promise((r) => setTimeout(r, 20))
    assert.equal(woke, false, 'another category does not wake it')
    await b.push(batch('metric', 2))
    await waiting
    const aborted = new AbortController()
    const pending = b.waitFor('metric', 1 << 30, aborted.signal)
    aborted.abort()
    await pending
  })

  withBuffer('dead letters are kept, bounded, oldest evicted', async (b) => {
    const d = (seq: number) => ({
      upstream: 'u',
      category: 'metric' as const,
      seq,
      status: 400,
      response: 'no',
      at: seq,
      points: 1,
    })
    for (const s of [1, 2, 3]) await b.addDeadLetter(d(s), 2)
    assert.deepEqual(
      b.deadLetters().map((x) => x.seq),
      [2, 3],
    )
  })

  withBuffer(
    "once a push settles the payload is the caller's: reusing it changes nothing kept",
    async (b) => {
      // With room before them (written in place by a buffer that can) and without.
      const roomy = [1, 2, 3].map((m) => ({
        ...batch('metric', m),
        payload: withRoom(Buffer.alloc(300, m), 300),
        payloadRoom: PAYLOAD_ROOM,
      }))
      const plain = [4, 5].map((m) => batch('metric', m))
      const all = [...roomy, ...plain]
      // Pushed in one turn, committed together.
      await Promise.all(all.map((x) => b.push(x)))
      for (const x of all) x.payload.fill(0xee)
      const got = b.read('metric', 0, 1 << 20)
      assert.deepEqual(markers(got), [1, 2, 3, 4, 5])
      assert.deepEqual(
        got.map((x) => x.payload.every((v) => v === x.payload[0])),
        [true, true, true, true, true],
      )
    },
  )

  withBuffer('a window released twice never lends its memory to two live reads', async (b) => {
    for (const m of [1, 2, 3]) await b.push(batch('metric', m, 5000))
    const first = b.read('metric', 0, 10)
    b.release(first)
    b.release(first)
    // Two live windows of one record each, of one size: shared memory would show as one marker.
    const a = b.read('metric', 0, 10)
    const c = b.read('metric', a[0].seq, 10)
    assert.deepEqual([...markers(a), ...markers(c)], [1, 2])
    b.release(a)
    const d = b.read('metric', c[0].seq, 10)
    assert.deepEqual([...markers(c), ...markers(d)], [2, 3], 'a live window is untouched')
    assert.ok([c, d].every((w) => w[0].payload.every((v) => v === w[0].payload[0])))
  })
}
