/**
 * The fast protobuf path of the upload decoder gives exactly the general path's batches
 * (decode to points, then toColumns) for the bodies it takes, and declines the others.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { encodePoint } from '../../../src/decode/codec/protobuf.js'
import { decodePoints } from '../../../src/decode/codec/protobuf-decode.js'
import { PbWriter } from '../../../src/decode/codec/pb-writer.js'
import { parseLines } from '../../../src/decode/lp/parse.js'
import { Kind, newPoint, type Point } from '../../../src/shared/point.js'
import { toColumns } from '../../../src/workspace/ingest/columns.js'
import { pbToColumns } from '../../../src/workspace/ingest/pb-columns.js'

const NOW = 1_700_000_000_000_000_000n

function body(points: Point[]): Uint8Array {
  const w = new PbWriter()
  for (const p of points) encodePoint(w, p)
  return w.finish()
}

function general(b: Uint8Array) {
  const points = decodePoints(b)
  const timed = points.every((p) => p.time !== null)
  for (const p of points) p.time ??= NOW
  return { points: points.length, tables: toColumns('logging', points), timed }
}

function lp(text: string): Point[] {
  return parseLines(text, Buffer.from(text)).points
}

test('the fast path equals the general path on mixed bodies', () => {
  const cases = [
    lp(
      [
        'cpu,host=a,Host=b usage=1.5,n=3i,u=7u,ok=true,msg="hé ✓" 10',
        'cpu,host=b usage=2 11',
        'mem,host=a free=-12i,time="x" 12',
        'cpu,region=eu n=4i,extra="y" 13',
        'cpu,host=a usage=0,n=9007199254740993i 14',
      ].join('\n'),
    ),
    lp('a,t=1 f=1\nb,t=2 f=2\na,t=3 g=true'),
    [],
  ]
  const untimed = newPoint('cpu')
  untimed.tags.push({ key: 'host', value: 'z' })
  untimed.fields.push({ key: 'v', kind: Kind.FLOAT, value: 1 })
  cases.push([untimed])
  for (const points of cases) {
    const b = body(points)
    assert.deepEqual(pbToColumns('logging', b, NOW), general(b))
  }
})

test('the fast path declines what the general path treats specially', () => {
  const declined = [
    lp('cpu v=1i\ncpu v="text"'), // a key whose type changes
    lp('cpu v=1i\ncpu v=true'),
  ]
  const arr = newPoint('cpu')
  arr.fields.push({ key: 'a', kind: Kind.ARRAY, value: { kind: Kind.INT, items: [1, 2] } })
  declined.push([arr])
  const bytes = newPoint('cpu')
  bytes.fields.push({ key: 'b', kind: Kind.BYTES, value: new Uint8Array([1, 2]) })
  declined.push([bytes])
  const twice = newPoint('cpu')
  twice.tags.push({ key: 'k', value: 'a' })
  twice.fields.push({ key: 'k', kind: Kind.FLOAT, value: 1 })
  declined.push([twice])
  for (const points of declined) assert.equal(pbToColumns('logging', body(points), NOW), null)
  assert.equal(pbToColumns('logging', new Uint8Array([0x0a, 0x05, 0x0a]), NOW), null)
})

/** A point written field by field, so a test can leave its time out or give raw bytes. */
function rawPoint(w: PbWriter, name: string, tags: [string, Uint8Array][], time?: bigint): void {
  const m = w.begin(1, 2)
  w.tag(1, 2)
  w.string(name)
  for (const [key, value] of tags) {
    const kv = w.begin(2, 1)
    w.tag(1, 2)
    w.string(key)
    w.tag(11, 2)
    w.bytes(value)
    w.tag(8, 0)
    w.uvarint(1)
    w.end(kv)
  }
  if (time !== undefined) {
    w.tag(3, 0)
    w.int64(time)
  }
  w.end(m)
}

test('times: negative, zero, past 2^53, the int64 bounds, absent (the receive time)', () => {
  const w = new PbWriter()
  const times = [-1n, 0n, -(2n ** 63n), 2n ** 63n - 1n, 2n ** 53n + 1n, -(2n ** 53n) - 3n, 127n]
  times.push(128n, 2n ** 32n - 1n, 2n ** 32n, -(2n ** 32n), 1_700_000_000_123_456_789n)
  for (const t of times) rawPoint(w, 'cpu', [['host', Buffer.from('a')]], t)
  rawPoint(w, 'cpu', [['host', Buffer.from('b')]])
  const b = w.finish()
  const fast = pbToColumns('logging', b, NOW)
  assert.deepEqual(fast, general(b))
  assert.deepEqual([...fast!.tables[0].time], [...times, NOW])
})

test('a varint time longer than 10 bytes is declined', () => {
  // PBPoints { arr: PBPoint { time: 11 bytes of varint } }
  const bad = new Uint8Array([0x0a, 12, 0x18, ...new Array<number>(11).fill(0xff)])
  assert.equal(pbToColumns('logging', bad, NOW), null)
})

test('columns missing in some rows, many rows and strings, shapes that change', () => {
  const lines: string[] = []
  for (let i = 0; i < 1500; i++) {
    const tags = i % 3 === 0 ? `,host=h${i % 7},dc=d${i}` : `,dc=d${i % 5}`
    const fields = [
      i % 4 === 1 ? '' : `v=${i / 3}`,
      i % 10 === 0 ? `ok=${i % 20 === 0}` : '',
      i > 700 ? `late="x${i % 900}"` : '',
      i < 300 ? `early=${i}u` : '',
      i % 2 ? `msg="${'long message '.repeat(6)}${i % 4}"` : '',
      i % 97 === 0 ? 'time="a time key"' : '',
    ].filter((f) => f !== '')
    if (fields.length === 0) fields.push('z=1')
    if (i % 11 === 0) fields.reverse() // the same keys in another order
    lines.push(`${i % 13 === 0 ? 'mem' : 'cpu'}${tags} ${fields.join(',')} ${i * 1000}`)
  }
  const b = body(lp(lines.join('\n')))
  const fast = pbToColumns('logging', b, NOW)
  assert.deepEqual(fast, general(b))
  assert.equal(fast!.points, 1500)
})

test('different bytes that decode to the same text share one dictionary entry', () => {
  const w = new PbWriter()
  const values = [[0xff], [0xfe], [0x61], [0xff], [0xc3, 0xa9], [0xfe]].map(
    (v) => new Uint8Array(v),
  )
  for (const v of values) rawPoint(w, 'cpu', [['k', v]], 1n)
  const b = w.finish()
  assert.deepEqual(pbToColumns('logging', b, NOW), general(b))
})

test('a type change after many points of one shape is declined', () => {
  const many = Array.from({ length: 400 }, (_, i) => `cpu,host=a v=${i}i,w=1 ${i}`)
  const changed = ['cpu,host=a v="s",w=1 9', 'cpu,host=a,v=t w=1 9', 'cpu,host=a v=true,w=1 9']
  for (const last of changed)
    assert.equal(pbToColumns('logging', body(lp([...many, last].join('\n'))), NOW), null)
})
