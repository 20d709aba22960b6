/**
 * The uploader hands each delivered window's memory back to the disk buffer when its bodies
 * were compressed, so the next window is read into it: every record still arrives once, byte
 * for byte. With compression off a body is the window's own memory, which a socket might still
 * be writing, and nothing is handed back.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { DiskBuffer } from '../../../src/buffer/disk/disk-buffer.js'
import { BufferPool } from '../../../src/shared/buffer-pool.js'
import type { Compression, Send } from '../../../src/sinks/dataway/send.js'
import { Uploader } from '../../../src/sinks/dataway/uploader.js'
import { parseUpstream } from '../../../src/sinks/dataway/upstream.js'
import { quietBuffer, quietUpload } from '../../helpers/quiet-events.js'

/** One PBPoints entry of 2,002 bytes, its bytes all `n`. */
const entry = (n: number) => Buffer.concat([Buffer.from([0x0a, 0xd0, 0x0f]), Buffer.alloc(2000, n)])

async function deliverAll(compression: Compression): Promise<{ got: Buffer; pool: BufferPool }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-release-'))
  const pool = new BufferPool(4 * 2 ** 20)
  const o = { durability: 'sync' as const, maxBytesPerCategory: 1 << 30, minFreeDisk: 0 }
  const buf = new DiskBuffer({ path: dir, whenFull: 'reject', buffers: pool, ...o }, quietBuffer)
  await buf.start()
  const bodies: Buffer[] = []
  // Copies the bytes before it resolves, as compression does.
  const send: Send = async (body) => void bodies.push(Buffer.from(body.payload))
  const opts = {
    ...{ compression, gzipLevel: 1, userAgent: 'test', maxRawBodySize: 5000, timeoutMs: 5_000 },
    ...{ retryInitialMs: 1, retryMaxMs: 5, maxAgeMs: 3_600_000, concurrency: 1 },
    ...{ shutdownTimeoutMs: 50, maxDeadLetters: 10 },
  }
  const up = new Uploader(
    buf,
    [parseUpstream('http://up:1?token=t')],
    opts,
    quietUpload,
    () => send,
  )
  await up.start()
  for (let n = 0; n < 60; n++) {
    const payload = entry(n)
    await buf.push({ category: 'metric', payload, points: 1, input: 't', receivedAt: Date.now() })
    // Now and then let the uploader catch up, so windows of different sizes are read.
    if (n % 7 === 0) await new Promise((r) => setTimeout(r, 5))
  }
  const total = 60 * entry(0).length
  while (bodies.reduce((n, b) => n + b.length, 0) < total)
    await new Promise((r) => setTimeout(r, 5))
  await up.shutdown()
  await buf.shutdown()
  fs.rmSync(dir, { recursive: true, force: true })
  return { got: Buffer.concat(bodies), pool }
}

const expected = Buffer.concat(Array.from({ length: 60 }, (_, n) => entry(n)))

test('compressed: windows are read into the memory of earlier ones, and arrive exact', async () => {
  const { got, pool } = await deliverAll('gzip')
  assert.ok(got.equals(expected))
  assert.ok(pool.stats.reused > 0, `reused ${pool.stats.reused}`)
})

test('uncompressed: no window is handed back', async () => {
  const { got, pool } = await deliverAll('none')
  assert.ok(got.equals(expected))
  assert.equal(pool.stats.reused, 0)
  assert.equal(pool.bytes, 0)
})
