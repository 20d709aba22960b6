/**
 * Payload buffers: `withRoom` copies a payload after its room into a buffer from the thread's
 * source (a fresh exact one by default, a pooled one when set), and `ownsRoom` is true only of
 * a payload it made, never of another view of a reused buffer.
 */
import assert from 'node:assert/strict'
import { afterEach, test } from 'node:test'
import { BufferPool } from '../../../src/shared/buffer-pool.js'
import {
  ownsRoom,
  PAYLOAD_ROOM,
  payloadBuffers,
  withRoom,
} from '../../../src/shared/payload-room.js'

afterEach(() => payloadBuffers(null))

test('by default a payload gets an exact buffer of its own, room before it', () => {
  const p = withRoom(new Uint8Array([1, 2, 3, 4, 9]), 4)
  assert.deepEqual([...p], [1, 2, 3, 4])
  assert.equal(p.byteOffset, PAYLOAD_ROOM)
  assert.equal(p.buffer.byteLength, PAYLOAD_ROOM + 4)
  assert.ok(ownsRoom(p, PAYLOAD_ROOM))
})

test('with a pool as the source, payloads reuse its buffers and leave the bytes past them', () => {
  const pool = new BufferPool(1 << 20)
  payloadBuffers((n) => pool.take(n).buffer as ArrayBuffer)
  const first = withRoom(new Uint8Array(20_000).fill(7), 20_000)
  const buffer = first.buffer as ArrayBuffer
  assert.equal(buffer.byteLength, 24 * 1024, 'a size class')
  pool.give(buffer)
  const second = withRoom(new Uint8Array(19_000).fill(5), 19_000)
  assert.ok(second.buffer === buffer, 'the returned buffer')
  assert.equal(second.length, 19_000)
  assert.ok(second.every((v) => v === 5))
  assert.ok(ownsRoom(second, PAYLOAD_ROOM))
})

test('ownsRoom: not a view of the same buffer made otherwise, nor another room', () => {
  const p = withRoom(new Uint8Array(8), 8)
  const again = new Uint8Array(p.buffer, PAYLOAD_ROOM, 8)
  assert.equal(ownsRoom(again, PAYLOAD_ROOM), false)
  assert.equal(ownsRoom(p, 0), false)
  const body = new Uint8Array(PAYLOAD_ROOM + 8).subarray(PAYLOAD_ROOM)
  assert.equal(ownsRoom(body, PAYLOAD_ROOM), false)
})
