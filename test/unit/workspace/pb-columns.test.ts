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
  for (const p of points) p.time ??= NOW
  return { points: points.length, tables: toColumns('logging', points) }
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
