/**
 * A decode worker's result as it leaves the thread: the payload's CRC-32 added, and the payload
 * moved (its ArrayBuffer in the transfer list) only when it owns all of that ArrayBuffer.
 */
import assert from 'node:assert/strict'
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads'
import zlib from 'node:zlib'
import { test } from 'node:test'
import { transferableSymbol, valueSymbol } from 'piscina'
import type { DecodeOk } from '../../../src/ingest/protocol.js'
import { leaving } from '../../../src/ingest/worker-result.js'
import { PAYLOAD_ROOM, payloadBuffers, withRoom } from '../../../src/shared/payload-room.js'

const result = (payload: Uint8Array, points = 1): DecodeOk => ({
  ok: true,
  points,
  payload,
  echo: null,
  warnings: {},
  bodyBytes: 10,
  pipeline: [],
})

type Moved = { [k: symbol]: unknown }

/** The result as the HTTP thread receives it: checked to move just the payload's buffer. */
function sent(r: DecodeOk): DecodeOk {
  const out = leaving(r) as unknown as Moved
  const transfer = out[transferableSymbol] as ArrayBuffer[]
  const value = out[valueSymbol] as DecodeOk
  assert.deepEqual(transfer, [r.payload.buffer])
  assert.equal(value.payloadCrc, zlib.crc32(r.payload))
  const { port1, port2 } = new MessageChannel()
  port1.postMessage(value, transfer)
  const got = receiveMessageOnPort(port2)?.message as DecodeOk
  port1.close()
  return got
}

test('a payload owning its ArrayBuffer is moved, with its CRC, and arrives whole', () => {
  const payload = new Uint8Array([10, 3, 1, 2, 3])
  const got = sent(result(payload))
  assert.deepEqual([...got.payload], [10, 3, 1, 2, 3])
  assert.equal(payload.byteLength, 0) // detached here: moved, not copied
})

test('a payload with room before it in its own buffer is moved, view and room kept', () => {
  const payload = withRoom(new Uint8Array([10, 3, 1, 2, 3]), 5)
  const got = sent({ ...result(payload), payloadRoom: PAYLOAD_ROOM })
  assert.deepEqual([...got.payload], [10, 3, 1, 2, 3])
  assert.equal(got.payload.byteOffset, PAYLOAD_ROOM)
  assert.equal(got.payloadRoom, PAYLOAD_ROOM)
  assert.equal(payload.byteLength, 0)
})

test('a payload in a longer buffer made for it (a size class) is moved with its room', () => {
  payloadBuffers((n) => new ArrayBuffer(n + 1000))
  try {
    const payload = withRoom(new Uint8Array([10, 3, 1, 2, 3]), 5)
    assert.equal(payload.buffer.byteLength, PAYLOAD_ROOM + 5 + 1000)
    const got = sent({ ...result(payload), payloadRoom: PAYLOAD_ROOM })
    assert.deepEqual([...got.payload], [10, 3, 1, 2, 3])
    assert.equal(got.payload.byteOffset, PAYLOAD_ROOM)
    assert.equal(got.payloadRoom, PAYLOAD_ROOM)
  } finally {
    payloadBuffers(null)
  }
})

test('an unused spare output buffer goes back in the same transfer', () => {
  const payload = new Uint8Array([10, 3, 1, 2, 3])
  const spare = new ArrayBuffer(64)
  const out = leaving(result(payload), undefined, spare) as unknown as Moved
  assert.deepEqual(out[transferableSymbol], [payload.buffer, spare])
  assert.ok((out[valueSymbol] as { spareOut?: ArrayBuffer }).spareOut === spare)
})

test('a payload claiming room its buffer does not have is cloned, and loses the claim', () => {
  const larger = new Uint8Array(PAYLOAD_ROOM + 16).subarray(PAYLOAD_ROOM, PAYLOAD_ROOM + 8)
  const out = leaving({ ...result(larger), payloadRoom: PAYLOAD_ROOM })
  assert.equal(transferableSymbol in out, false)
  assert.equal(out.payloadRoom, 0)
})

test('a view into a larger or shared buffer is cloned: nothing is moved', () => {
  const larger = new Uint8Array(64).subarray(8, 16)
  const shared = new Uint8Array(new SharedArrayBuffer(8))
  for (const payload of [larger, shared]) {
    const out = leaving(result(payload))
    assert.equal(transferableSymbol in out, false)
    assert.equal(out.payloadCrc, zlib.crc32(payload))
  }
})

test('failures and empty results leave as they are', () => {
  const empty = result(new Uint8Array(0), 0)
  assert.equal(leaving(empty), empty)
  assert.equal(empty.payloadCrc, undefined)
  const failed = { ok: false as const, error: { code: 'emptyBody', message: 'x' } }
  assert.equal(leaving(failed as never), failed)
})

test('the body goes back with a result that cannot view it, in the same transfer', () => {
  const body = new Uint8Array(new ArrayBuffer(32), 0, 20)
  const payload = new Uint8Array([10, 3, 1, 2, 3])
  const out = leaving(result(payload), body) as unknown as Moved
  const value = out[valueSymbol] as DecodeOk & { spareBody?: ArrayBuffer }
  assert.deepEqual(out[transferableSymbol], [payload.buffer, body.buffer])
  assert.ok(value.spareBody === body.buffer)
  // A failure's error is text: its body goes back too.
  const failed = { ok: false as const, error: { code: 'noPoints', message: 'x' } }
  const body2 = new Uint8Array(16)
  const moved = leaving(failed as never, body2) as unknown as Moved
  assert.deepEqual(moved[transferableSymbol], [body2.buffer])
})

test('the body stays when the payload views it or the result carries objects', () => {
  const body = new Uint8Array(64)
  const aliased = leaving(result(body.subarray(8, 16)), body)
  assert.equal(aliased.spareBody, undefined)
  assert.equal(transferableSymbol in aliased, false)
  for (const extra of [{ agg: [] }, { sourcemaps: [] }, { cdn: { marked: 0 } }]) {
    const payload = new Uint8Array([1, 2])
    const r = { ...result(payload), ...extra } as DecodeOk
    const out = leaving(r, body) as unknown as Moved
    assert.deepEqual(out[transferableSymbol], [payload.buffer])
    assert.equal((out[valueSymbol] as { spareBody?: unknown }).spareBody, undefined)
  }
})
