/**
 * The decode pool under faults and load: a worker that dies (here: over its heap limit) fails
 * only its own request, with 503 decodeWorkerDied, and is replaced; small tasks overtake
 * queued large ones.
 */
import assert from 'node:assert/strict'
import zlib from 'node:zlib'
import { test } from 'node:test'
import { FerryError } from '../../../src/errors.js'
import { isLargeTask, Lanes } from '../../../src/ingest/lanes.js'
import { DecodePool } from '../../../src/ingest/pool.js'
import { plainTask } from '../../../src/ingest/protocol.js'

const small = () => plainTask(Buffer.from('m f=1i'), 'metric')

test('a worker dying over its heap limit: 503 for its request, other writes go on', async () => {
  const deaths: string[] = []
  const pool = new DecodePool({
    workers: 2,
    maxQueue: 64,
    resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 },
    onWorkerDied: (e) => deaths.push(e.message),
  })
  await pool.start()
  try {
    // 2 million tiny points need about 700 MB of heap on the general path: far past the 32 MB
    // limit. (The exponent keeps the body off the byte-level transcoder, which needs no heap.)
    const huge = plainTask(Buffer.from('a x=1e0\n'.repeat(2_000_000)), 'metric', {
      maxPoints: Infinity,
    })
    const dying = pool.decode(huge).then(
      () => assert.fail('the huge task should fail'),
      (e: unknown) => e,
    )
    const others = await Promise.all(Array.from({ length: 20 }, () => pool.decode(small())))
    assert.deepEqual(
      others.map((r) => r.points),
      Array(20).fill(1),
    )
    const err = (await dying) as FerryError
    assert.ok(err instanceof FerryError)
    assert.equal(err.code, 'decodeWorkerDied')
    assert.equal(err.status, 503)
    assert.equal(err.retryAfter, 1)
    assert.match(
      err.message,
      /^the decode worker handling this request died \(.+\); it has been replaced, retry the request$/,
    )
    assert.equal(deaths.length, 1)
    const after = await Promise.all(Array.from({ length: 10 }, () => pool.decode(small())))
    assert.equal(after.length, 10)
  } finally {
    await pool.shutdown()
  }
})

test('a worker past recycle_heap is replaced after its task, and no request fails for it', async () => {
  const recycled: number[] = []
  const deaths: string[] = []
  const pool = new DecodePool({
    workers: 2,
    maxQueue: 64,
    // Every worker is past one byte after any task: each is replaced after every task.
    recycleHeapBytes: 1,
    onWorkerRecycled: (bytes) => recycled.push(bytes),
    onWorkerDied: (e) => deaths.push(e.message),
  })
  await pool.start()
  try {
    const general = () => plainTask(Buffer.from('m f=1e0'), 'metric')
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => pool.decode(i % 2 ? small() : general())),
    )
    assert.deepEqual(
      results.map((r) => r.points),
      Array(40).fill(1),
    )
    assert.equal('workerHeap' in results[0], false, 'the heap report stays inside the pool')
    assert.deepEqual(deaths, [])
    assert.ok(recycled.length >= 2, `${recycled.length} recycled`)
    assert.ok(recycled.every((b) => b > 1_000_000))
    assert.equal(pool.threads, 2)
  } finally {
    await pool.shutdown()
  }
})

test('lanes: small tasks overtake queued large ones; large never hold the last slot', async () => {
  const lanes = new Lanes(2, 10)
  const order: string[] = []
  const gates = new Map<string, () => void>()
  const job = (name: string) => () =>
    new Promise<string>((resolve) => {
      order.push(`start ${name}`)
      gates.set(name, () => resolve(name))
    })
  const busy = () => new FerryError('agentBusy', 'full')
  const l1 = lanes.run(true, job('L1'), busy)
  const l2 = lanes.run(true, job('L2'), busy)
  const s1 = lanes.run(false, job('S1'), busy)
  await new Promise((r) => setImmediate(r))
  assert.deepEqual(order, ['start L1', 'start S1'])
  const s2 = lanes.run(false, job('S2'), busy)
  gates.get('S1')!()
  assert.equal(await s1, 'S1')
  await new Promise((r) => setImmediate(r))
  assert.deepEqual(order, ['start L1', 'start S1', 'start S2'])
  gates.get('L1')!()
  await l1
  await new Promise((r) => setImmediate(r))
  assert.deepEqual(order, ['start L1', 'start S1', 'start S2', 'start L2'])
  gates.get('S2')!()
  gates.get('L2')!()
  assert.deepEqual(await Promise.all([s2, l2]), ['S2', 'L2'])
  assert.equal(lanes.queued, 0)
})

test('lanes: a full queue answers busy at once', async () => {
  const lanes = new Lanes(1, 2)
  const never = () => new Promise<never>(() => undefined)
  const busy = () => new FerryError('agentBusy', 'decode queue is full (2 tasks)')
  void lanes.run(false, never, busy)
  void lanes.run(false, never, busy)
  void lanes.run(false, never, busy)
  assert.equal(lanes.queued, 2)
  await assert.rejects(lanes.run(false, never, busy), {
    code: 'agentBusy',
    message: 'decode queue is full (2 tasks)',
  })
})

test('a task is large by what it may expand to', () => {
  const max = 64 << 20
  assert.equal(isLargeTask(1 << 20, false, max), false)
  assert.equal(isLargeTask((1 << 20) + 1, false, max), true)
  assert.equal(isLargeTask(1016, true, max), false)
  assert.equal(isLargeTask(1017, true, max), true)
  assert.equal(isLargeTask(2048, true, 1 << 20), false)
})

test("a worker's result carries its payload's CRC-32, for the buffer's record checksum", async () => {
  const pool = new DecodePool({ workers: 1, maxQueue: 8 })
  await pool.start()
  try {
    const out = await pool.decode(plainTask(Buffer.from('m,t=a f=1i,g="s" 1\nm f=2 2\n'), 'metric'))
    assert.equal(out.points, 2)
    assert.equal(out.payloadCrc, zlib.crc32(out.payload))
  } finally {
    await pool.shutdown()
  }
})
