/**
 * The body pool: size classes, reuse of a returned buffer, the bound on idle bytes (a buffer
 * given back past it is dropped, counted), the fallback to a fresh buffer (counted), bodies too
 * large to pool, and bodies read into reused buffers holding an earlier body's bytes.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { BufferPool, sizeClass } from '../../../src/shared/buffer-pool.js'
import { readBody } from '../../../src/http/body.js'

const KiB = 1024

test('size classes: at least 16 KiB, then powers of two and 1.5 times them', () => {
  const got = [1, 16 * KiB, 16 * KiB + 1, 24 * KiB + 1, 318_530, 400 * KiB, 600 * KiB].map(
    sizeClass,
  )
  assert.deepEqual(got, [16 * KiB, 16 * KiB, 24 * KiB, 32 * KiB, 384 * KiB, 512 * KiB, 768 * KiB])
})

test('a buffer given back is reused by the next body of its class; none: a fresh one', () => {
  const pool = new BufferPool(4 * 2 ** 20)
  const a = pool.take(20_000)
  assert.equal(a.length, 20_000)
  assert.equal(a.byteOffset, 0)
  assert.equal(a.buffer.byteLength, 24 * KiB)
  pool.give(a.buffer as ArrayBuffer)
  assert.equal(pool.bytes, 24 * KiB)
  const b = pool.take(17_000)
  assert.ok(b.buffer === a.buffer)
  assert.equal(b.length, 17_000)
  assert.equal(pool.bytes, 0)
  const c = pool.take(17_000)
  assert.ok(c.buffer !== a.buffer)
  assert.deepEqual(pool.stats, { reused: 1, allocated: 2, dropped: 0 })
})

test('idle buffers stay within the bound: one given back past it is dropped and counted', () => {
  const pool = new BufferPool(256 * KiB)
  const bodies = Array.from({ length: 6 }, () => pool.take(60 * KiB))
  for (const b of bodies) pool.give(b.buffer as ArrayBuffer)
  assert.equal(pool.bytes, 4 * 64 * KiB)
  assert.equal(pool.stats.dropped, 2)
  assert.equal(pool.stats.allocated, 6)
})

test('bodies over a quarter of the bound, and a bound of 0, are never pooled', () => {
  const pool = new BufferPool(256 * KiB)
  const big = pool.take(65 * KiB)
  assert.equal(big.buffer.byteLength, 65 * KiB)
  pool.give(new ArrayBuffer(96 * KiB))
  assert.equal(pool.bytes, 0)
  const off = new BufferPool(0)
  const b = off.take(100)
  assert.equal(b.buffer.byteLength, 100)
  off.give(new ArrayBuffer(16 * KiB))
  assert.equal(off.bytes, 0)
  assert.deepEqual(off.stats, { reused: 0, allocated: 0, dropped: 0 })
})

test('buffers not of a size class, detached or shared are ignored', () => {
  const pool = new BufferPool(4 * 2 ** 20)
  pool.give(new ArrayBuffer(20_000))
  pool.give(new SharedArrayBuffer(32 * KiB) as unknown as ArrayBuffer)
  const moved = new ArrayBuffer(32 * KiB)
  structuredClone(moved, { transfer: [moved] })
  pool.give(moved)
  assert.equal(pool.bytes, 0)
})

function request(body: Uint8Array, declared = body.length): Request {
  return new Request('http://ferry.test/v1/write/metric', {
    method: 'POST',
    body,
    headers: { 'content-length': String(declared) },
  })
}

test('a body read into a reused buffer holds its own bytes only, whatever it declared', async () => {
  const pool = new BufferPool(4 * 2 ** 20)
  const old = pool.take(22_000)
  old.fill(0x41)
  pool.give(old.buffer as ArrayBuffer)
  const fresh = new Uint8Array(20_000).fill(0x42)
  const exact = await readBody(undefined, request(fresh), 2 ** 20, pool)
  assert.ok(exact.buffer === old.buffer, 'the returned buffer is reused')
  assert.deepEqual(exact, fresh)
  pool.give(exact.buffer as ArrayBuffer)
  // Declared longer than sent: a copy of what came, no byte of the earlier body.
  const short = await readBody(undefined, request(fresh.subarray(0, 19_000), 20_000), 2 ** 20, pool)
  assert.deepEqual(short, fresh.subarray(0, 19_000))
  assert.equal(short.buffer.byteLength, 19_000)
})
