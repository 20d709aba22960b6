/** The Native block encoder writes exactly the bytes of ClickHouse's format, column by column. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { encodeNativeBlock } from '../../../src/workspace/store/clickhouse/native.js'

const str = (s: string) => {
  const b = Buffer.from(s)
  assert.ok(b.length < 128)
  return [b.length, ...b]
}
const le = (a: ArrayBufferView) => [...new Uint8Array(a.buffer, a.byteOffset, a.byteLength)]

test('a block of three rows: header, Int64, nullable numbers, booleans and text', () => {
  const time = new BigInt64Array([1n, -2n, 3n])
  const values = new Float64Array([1.5, 0, -2])
  const body = encodeNativeBlock(3, [
    { name: 'time', type: 'Int64', values: time },
    { name: 'v', type: 'Nullable(Float64)', values, nulls: new Uint8Array([0, 1, 0]) },
    { name: 'ok', type: 'Nullable(UInt8)', values: new Uint8Array([1, 0, 1]), nulls: null },
    {
      name: 'host a',
      type: 'Nullable(String)',
      dict: ['é', 'web'],
      codes: new Int32Array([1, -1, 0]),
    },
  ])
  // One line per column: its name, its type, its null map, its values.
  // prettier-ignore
  const expected = [
    4, 3,
    ...str('time'), ...str('Int64'), ...le(time),
    ...str('v'), ...str('Nullable(Float64)'), 0, 1, 0, ...le(values),
    ...str('ok'), ...str('Nullable(UInt8)'), 0, 0, 0, 1, 0, 1,
    ...str('host a'), ...str('Nullable(String)'), 0, 1, 0, ...str('web'), 0, ...str('é'),
  ]
  assert.deepEqual([...body], expected)
})

test('row counts and long strings take multi-byte lengths; views are copied from their offset', () => {
  const rows = 200
  const long = 'x'.repeat(300)
  const backing = new BigInt64Array(rows + 5).map((_, i) => BigInt(i))
  const time = backing.subarray(5)
  const codes = new Int32Array(rows).map((_, i) => i % 2)
  const body = encodeNativeBlock(rows, [
    { name: 'time', type: 'Int64', values: time },
    { name: 's', type: 'Nullable(String)', dict: ['a', long], codes },
  ])
  let at = 0
  assert.deepEqual([...body.subarray(at, (at += 3))], [2, 0xc8, 0x01])
  at += str('time').length + str('Int64').length
  assert.equal(body.readBigInt64LE(at), 5n)
  assert.equal(body.readBigInt64LE(at + 8 * (rows - 1)), BigInt(rows + 4))
  at += 8 * rows + str('s').length + str('Nullable(String)').length
  assert.ok(body.subarray(at, at + rows).every((b) => b === 0))
  at += rows
  assert.deepEqual([...body.subarray(at, at + 2)], [1, 'a'.charCodeAt(0)])
  assert.deepEqual([...body.subarray(at + 2, at + 4)], [0xac, 0x02]) // 300
  assert.equal(body.subarray(at + 4, at + 304).toString(), long)
  assert.equal(body.length, at + (rows / 2) * (2 + 302))
})
