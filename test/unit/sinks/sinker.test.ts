/**
 * The sinker: exact `X-Global-Tags` values, one body group per value in first-seen order, the
 * points of each group in order, package ids that never repeat and are the same on every cut of
 * the same window (what exactly once needs).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import crypto from 'node:crypto'
import type { StoredBatch } from '../../../src/buffer/buffer.js'
import { decodePoints } from '../../../src/decode/codec/protobuf-decode.js'
import { PbWriter } from '../../../src/decode/codec/pb-writer.js'
import { encodePoint } from '../../../src/decode/codec/protobuf.js'
import { Kind, newPoint, type Point } from '../../../src/shared/point.js'
import { groupedBodies, headerValue, sinkKeys } from '../../../src/sinks/dataway/sinker.js'

const BUF = 'a1b2c3d4e5f6a7b8c9d0e1f2'

function pt(
  name: string,
  n: number,
  tags: Record<string, string>,
  str: Record<string, string> = {},
): Point {
  const p = newPoint(name)
  for (const [key, value] of Object.entries(tags)) p.tags.push({ key, value })
  for (const [key, value] of Object.entries(str)) p.fields.push({ key, kind: Kind.STRING, value })
  p.fields.push({ key: 'n', kind: Kind.INT, value: n })
  p.time = 1_000n
  return p
}

function record(seq: number, points: Point[]): StoredBatch {
  const w = new PbWriter(256)
  for (const p of points) encodePoint(w, p)
  return {
    category: 'metric',
    payload: w.finish(),
    points: points.length,
    input: 't',
    receivedAt: 1,
    seq,
  }
}

const ns = (b: { payload: Uint8Array }) =>
  decodePoints(b.payload).map((p) => p.fields.find((f) => f.key === 'n')!.value)
const hash = (v: string) => crypto.createHash('sha256').update(v).digest('hex').slice(0, 16)

test('sink keys are the global tag keys and the customer keys, sorted, once each', () => {
  assert.deepEqual(sinkKeys(['region', 'host'], ['zone', 'host', 'category']), [
    'category',
    'host',
    'region',
    'zone',
  ])
})

test('header values: matching string tags and fields plus listed virtual keys, sorted by key', () => {
  const keys = new Set(['region', 'user', 'category', 'measurement', 'source', 'class'])
  const p = pt('cpu', 1, { region: 'eu', other: 'x' }, { user: 'ann' })
  assert.equal(headerValue(p, 'metric', keys), 'category=metric,measurement=cpu,region=eu,user=ann')
  assert.equal(headerValue(p, 'logging', keys), 'category=logging,region=eu,source=cpu,user=ann')
  assert.equal(headerValue(p, 'object', keys), 'category=object,class=cpu,region=eu,user=ann')
  assert.equal(headerValue(p, 'tracing', keys), 'category=tracing,region=eu,user=ann')
  // A number field never counts, even with a sink key.
  const q = newPoint('m')
  q.fields.push({ key: 'region', kind: Kind.INT, value: 3 })
  assert.equal(headerValue(q, 'metric', new Set(['region'])), '')
})

test('a window is split into one body per value, in first-seen order, with distinct ids', () => {
  const batches = [
    record(1, [pt('m', 0, { region: 'eu' }), pt('m', 1, { region: 'us' }), pt('m', 2, {})]),
    record(2, [pt('m', 3, { region: 'us' }), pt('m', 4, { region: 'eu' })]),
  ]
  const bodies = groupedBodies('metric', BUF, batches, 1 << 20, ['region'])
  assert.deepEqual(
    bodies.map((b) => [b.globalTags, b.pkgId, ns(b), b.points, b.firstSeq, b.lastSeq]),
    [
      ['region=eu', `fy1_${BUF}_1_2_s${hash('region=eu')}`, [0, 4], 2, 1, 2],
      ['region=us', `fy1_${BUF}_1_2_s${hash('region=us')}`, [1, 3], 2, 1, 2],
      [undefined, `fy1_${BUF}_1_1`, [2], 1, 1, 1],
    ],
  )
  // Cut again (a restart of the same planned window): the same bodies, byte for byte.
  const again = groupedBodies('metric', BUF, batches, 1 << 20, ['region'])
  assert.deepEqual(
    again.map((b) => [b.pkgId, Buffer.from(b.payload).toString('hex')]),
    bodies.map((b) => [b.pkgId, Buffer.from(b.payload).toString('hex')]),
  )
})

test('a group larger than a body is cut as without the sinker, ids stay unique', () => {
  const big = 'x'.repeat(40_000)
  const batches = [1, 2, 3].map((seq) =>
    record(seq, [
      pt('m', seq * 10, { region: 'eu' }, { s: big }),
      pt('m', seq * 10 + 1, { region: 'us' }),
    ]),
  )
  const bodies = groupedBodies('metric', BUF, batches, 64 * 1024, ['region'])
  assert.deepEqual(
    bodies.map((b) => [b.globalTags, b.pkgId.replace(/_s[0-9a-f]{16}$/, ''), ns(b)]),
    [
      ['region=eu', `fy1_${BUF}_1_1`, [10]],
      ['region=eu', `fy1_${BUF}_2_2`, [20]],
      ['region=eu', `fy1_${BUF}_3_3`, [30]],
      ['region=us', `fy1_${BUF}_1_3`, [11, 21, 31]],
    ],
  )
  assert.equal(new Set(bodies.map((b) => b.pkgId)).size, bodies.length)
})
