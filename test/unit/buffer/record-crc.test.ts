/**
 * The record checksum combined from the decode worker's payload CRC: the same bytes as when the
 * buffer reads the payload itself, and a wrong payload CRC is a damaged record, never a silent
 * one. `crc32Combine` agrees with zlib on every split of every buffer.
 */
import assert from 'node:assert/strict'
import zlib from 'node:zlib'
import { test } from 'node:test'
import fc from 'fast-check'
import { crc32Combine } from '../../../src/shared/crc32-combine.js'
import { decodeRecord, encodeRecord, RecordError } from '../../../src/buffer/disk/record.js'
import type { Batch } from '../../../src/buffer/buffer.js'
import { PAYLOAD_ROOM, withRoom } from '../../../src/shared/payload-room.js'

test('crc32Combine(crc(a), crc(b), |b|) is crc(a ++ b)', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 3000 }), (a, b) => {
      const whole = zlib.crc32(Buffer.concat([a, b]))
      assert.equal(crc32Combine(zlib.crc32(a), zlib.crc32(b), b.length), whole)
    }),
  )
  const big = Buffer.alloc(1 << 20, 0xa5)
  const head = Buffer.from('FYB2 header')
  assert.equal(
    crc32Combine(zlib.crc32(head), zlib.crc32(big), big.length),
    zlib.crc32(Buffer.concat([head, big])),
  )
})

const batch = (payload: Uint8Array): Batch => ({
  category: 'logging',
  payload,
  points: 3,
  input: 'nginx',
  storageIndex: 'idx',
  receivedAt: 1_700_000_000_123,
})

test("a record from the worker's payload CRC is byte for byte the one the buffer computes", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 5000 }), fc.nat(1e9), (payload, seq) => {
      const own = encodeRecord(batch(payload), seq)
      const given = encodeRecord({ ...batch(payload), payloadCrc: zlib.crc32(payload) }, seq)
      assert.deepEqual(given, own)
      assert.deepEqual(decodeRecord(given).payload, Buffer.from(payload))
    }),
  )
})

test('a record written into the room before its payload is the copied record, in the same memory', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 5000 }), fc.nat(1e9), (bytes, seq) => {
      const copied = encodeRecord(batch(Uint8Array.from(bytes)), seq)
      const payload = withRoom(bytes, bytes.length)
      const crc = zlib.crc32(payload)
      const inPlace = encodeRecord(
        { ...batch(payload), payloadCrc: crc, payloadRoom: PAYLOAD_ROOM },
        seq,
      )
      assert.deepEqual(inPlace, copied)
      assert.equal(inPlace.buffer, payload.buffer)
      assert.equal(inPlace.byteOffset + inPlace.length, payload.byteOffset + payload.length)
      assert.deepEqual([...payload], [...bytes]) // the payload itself is untouched
    }),
  )
})

test('a header larger than the room is written into a copy; the payload stays as it was', () => {
  const payload = withRoom(Buffer.from('\x0a\x03abc'), 5)
  const long = { ...batch(payload), input: 'i'.repeat(PAYLOAD_ROOM), payloadRoom: PAYLOAD_ROOM }
  const record = encodeRecord(long, 3)
  assert.notEqual(record.buffer, payload.buffer)
  assert.deepEqual(new Uint8Array(payload.buffer, 0, PAYLOAD_ROOM), new Uint8Array(PAYLOAD_ROOM))
  assert.deepEqual(decodeRecord(record).payload, Buffer.from('\x0a\x03abc'))
})

test('a payload CRC that does not match the payload makes a record that reads as damaged', () => {
  const payload = Buffer.from('\x0a\x03abc')
  const bad = encodeRecord({ ...batch(payload), payloadCrc: zlib.crc32(payload) ^ 1 }, 7)
  assert.throws(() => decodeRecord(bad), new RecordError('record checksum mismatch'))
})
