/**
 * A committed payload's buffer goes back to the buffer pool, so the next payload is written
 * into it; one a tap was given stays with the tap, and a payload without room of its own (a
 * view into other memory) is never given back. What was buffered is unchanged by the reuse.
 */
import assert from 'node:assert/strict'
import { afterEach, test } from 'node:test'
import { accept } from '../../../src/ingest/accept.js'
import { InlineDecoder } from '../../../src/ingest/inline.js'
import { plainTask } from '../../../src/ingest/protocol.js'
import { TapHub } from '../../../src/ingest/tap.js'
import { BufferPool } from '../../../src/shared/buffer-pool.js'
import { payloadBuffers } from '../../../src/shared/payload-room.js'
import { MemoryBuffer } from '../../helpers/memory-buffer.js'

const NOW = 1_700_000_000_000_000_000n
const quiet = { attached() {}, detached() {}, dropped() {} }

function body(seed: number): Uint8Array {
  const lines = Array.from(
    { length: 200 },
    (_, i) => `cpu,host=h${seed},cpu=cpu${i} usage=${seed}.${i},governor="perf ${i}",ok=true ${i}`,
  )
  return Buffer.from(lines.join('\n'))
}

afterEach(() => payloadBuffers(null))

test('committed payloads come back to the pool and carry the next write; tapped ones do not', async () => {
  const pool = new BufferPool(8 * 2 ** 20)
  payloadBuffers((n) => pool.take(n).buffer as ArrayBuffer)
  const buffer = new MemoryBuffer(1 << 30)
  const tap = new TapHub({ maxClients: 1, queuePoints: 1_000_000 }, quiet)
  const deps = { decoder: new InlineDecoder(), buffer, buffers: pool, tap }
  const first = await accept(deps, plainTask(body(1), 'metric', { now: NOW }), { input: 'lp' })
  assert.equal(pool.bytes, first.payload.buffer.byteLength, 'back in the pool')
  const second = await accept(deps, plainTask(body(2), 'metric', { now: NOW }), { input: 'lp' })
  assert.ok(second.payload.buffer === first.payload.buffer, 'written into the same buffer')
  const watcher = tap.attach(new Set())
  const third = await accept(deps, plainTask(body(3), 'metric', { now: NOW }), { input: 'lp' })
  assert.ok(third.payload.buffer === first.payload.buffer)
  assert.equal(pool.bytes, 0, 'the tapped payload stays out')
  assert.ok((await watcher.next())?.payload === third.payload)
  const kept = buffer.take()
  assert.equal(kept.length, 3)
  for (const [i, b] of kept.entries()) {
    const alone = await new InlineDecoder().decode(plainTask(body(i + 1), 'metric', { now: NOW }))
    assert.deepEqual(Buffer.from(b.payload), Buffer.from(alone.payload), `write ${i + 1}`)
  }
})

test('a payload without room of its own is never given back', async () => {
  const pool = new BufferPool(8 * 2 ** 20)
  const decoder = {
    decode: async () => ({ ...(await new InlineDecoder().decode(task())), payloadRoom: 0 }),
  }
  const task = () => plainTask(body(4), 'metric', { now: NOW })
  await accept({ decoder, buffer: new MemoryBuffer(1 << 30), buffers: pool }, task(), {
    input: 'lp',
  })
  assert.equal(pool.bytes, 0)
})
