/**
 * Upload bodies: exact cuts and package ids, and the properties exactly-once rests on: every
 * entry travels once and in order, ids never repeat, a window cut short only changes its last
 * body, and expiry never moves a cut.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import type { StoredBatch } from '../../../src/buffer/buffer.js'
import { buildBodies, entryEnds, joined } from '../../../src/sinks/dataway/bodies.js'
import { packageId } from '../../../src/sinks/dataway/pkg-id.js'

const BUF = 'a1b2c3d4e5f6a7b8c9d0e1f2'

/** A PBPoints run of entries of the given sizes; entry bytes are `fill`. */
function payload(sizes: number[], fill = 1): Uint8Array {
  const parts = sizes.map((n) => {
    const len: number[] = []
    let v = n
    do {
      len.push((v & 0x7f) | (v > 0x7f ? 0x80 : 0))
      v >>>= 7
    } while (v)
    return Buffer.concat([Buffer.from([0x0a, ...len]), Buffer.alloc(n, fill)])
  })
  return Buffer.concat(parts)
}

function record(seq: number, sizes: number[], extra: Partial<StoredBatch> = {}): StoredBatch {
  return {
    category: 'metric',
    payload: payload(sizes, seq & 0xff),
    points: sizes.length,
    input: 'test',
    receivedAt: 1_000 + seq,
    seq,
    ...extra,
  }
}

test('package ids name the buffer and the exact record range', () => {
  assert.equal(packageId(BUF, 3, 9), `fy1_${BUF}_3_9`)
  assert.equal(packageId(BUF, 4, 4, [0, 11]), `fy1_${BUF}_4_4_0-11`)
})

test('records group up to maxRaw; a large record travels in pieces alone', () => {
  const records = [record(1, [10, 10]), record(2, [30]), record(5, [90, 90, 90]), record(7, [5])]
  const bodies = buildBodies('metric', BUF, records, 100)
  assert.deepEqual(
    bodies.map((b) => [b.pkgId, b.points, b.payload.length]),
    [
      [`fy1_${BUF}_1_2`, 3, 56],
      [`fy1_${BUF}_5_5_0-0`, 1, 92],
      [`fy1_${BUF}_5_5_1-1`, 1, 92],
      [`fy1_${BUF}_5_5_2-2`, 1, 92],
      [`fy1_${BUF}_7_7`, 1, 7],
    ],
  )
})

test('a change of storage index closes a body', () => {
  const records = [
    record(1, [10]),
    record(2, [10], { storageIndex: 'a' }),
    record(3, [10], { storageIndex: 'a' }),
  ]
  const bodies = buildBodies('logging', BUF, records, 1000)
  assert.deepEqual(
    bodies.map((b) => [b.pkgId, b.storageIndex]),
    [
      [`fy1_${BUF}_1_1`, undefined],
      [`fy1_${BUF}_2_3`, 'a'],
    ],
  )
})

test('expired records leave the payload but not the cut or the id', () => {
  const records = [record(1, [10]), record(2, [10, 10]), record(3, [10])]
  const keep = (receivedAt: number) => receivedAt !== 1_002
  const [all] = buildBodies('metric', BUF, records, 1000)
  const [kept] = buildBodies('metric', BUF, records, 1000, keep)
  assert.equal(kept.pkgId, all.pkgId)
  assert.equal(kept.points, 2)
  assert.equal(kept.expiredPoints, 2)
  assert.equal(kept.receivedAt, 1_003)
  assert.deepEqual(
    Buffer.from(kept.payload),
    Buffer.concat([records[0].payload, records[2].payload]),
  )
  const [none] = buildBodies('metric', BUF, records, 1000, () => false)
  assert.equal(none.points, 0)
  assert.equal(none.expiredPoints, 4)
})

const recordsArb = fc
  .array(fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 8 }), {
    minLength: 1,
    maxLength: 30,
  })
  .map((all) => all.map((sizes, i) => record(i * 2 + 1, sizes)))

test('property: every entry once and in order, ids unique, bodies within maxRaw', () => {
  fc.assert(
    fc.property(recordsArb, fc.integer({ min: 50, max: 1500 }), (records, maxRaw) => {
      const bodies = buildBodies('metric', BUF, records, maxRaw)
      const sent = Buffer.concat(bodies.map((b) => b.payload))
      assert.deepEqual(sent, Buffer.concat(records.map((r) => r.payload)))
      assert.equal(new Set(bodies.map((b) => b.pkgId)).size, bodies.length)
      for (const b of bodies)
        assert.ok(b.payload.length <= maxRaw || entryEnds(b.payload).length === 1)
      const points = bodies.reduce((n, b) => n + b.points, 0)
      assert.equal(
        points,
        records.reduce((n, r) => n + r.points, 0),
      )
    }),
  )
})

test('property: a window cut short changes only its last body', () => {
  fc.assert(
    fc.property(recordsArb, fc.integer({ min: 50, max: 1500 }), fc.nat(), (records, max, k) => {
      const prefix = records.slice(0, 1 + (k % records.length))
      const full = buildBodies('metric', BUF, records, max).map((b) => b.pkgId)
      const short = buildBodies('metric', BUF, prefix, max).map((b) => b.pkgId)
      // Every body of the short window but its last (which may close early) is a body of the
      // long one: that last body is why a window's end is committed before it is sent.
      assert.deepEqual(short.slice(0, -1), full.slice(0, short.length - 1))
    }),
  )
})

test('property: expiry never moves a cut', () => {
  fc.assert(
    fc.property(recordsArb, fc.integer({ min: 50, max: 1500 }), fc.nat(), (records, max, m) => {
      const keep = (receivedAt: number) => (receivedAt + m) % 3 !== 0
      const all = buildBodies('metric', BUF, records, max)
      const kept = buildBodies('metric', BUF, records, max, keep)
      assert.deepEqual(
        kept.map((b) => b.pkgId),
        all.map((b) => b.pkgId),
      )
    }),
  )
})

test('adjacent pieces join as a view of their buffer, others as a copy, with the same bytes', () => {
  const arena = Buffer.alloc(8) // not from the pool that Buffer.concat also takes from
  arena.write('aabbbcdd')
  const view = joined([arena.subarray(0, 2), arena.subarray(2, 5), arena.subarray(5, 6)])
  assert.equal(view.buffer, arena.buffer)
  assert.equal(Buffer.from(view).toString(), 'aabbbc')
  const gap = joined([arena.subarray(0, 2), arena.subarray(6, 8)])
  assert.notEqual(gap.buffer, arena.buffer)
  assert.equal(Buffer.from(gap).toString(), 'aadd')
  const apart = joined([Buffer.from('xy'), Buffer.from('z')])
  assert.equal(Buffer.from(apart).toString(), 'xyz')
  assert.equal(joined([arena.subarray(3, 5)]).byteOffset, arena.byteOffset + 3)
})
