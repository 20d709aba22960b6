/** A text encoded once for many rows is the same bytes the writer writes for it per row. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  encodeNullableString,
  RowBinaryWriter,
} from '../../../src/workspace/store/clickhouse/rowbinary.js'

test('encodeNullableString equals the flag and string written by the writer', () => {
  for (const v of ['', 'web-01', 'é'.repeat(100), 'x'.repeat(20_000)]) {
    const w = new RowBinaryWriter()
    w.uint8(0)
    w.string(v)
    assert.deepEqual(encodeNullableString(v), Buffer.from(w.bytes()))
    const raw = new RowBinaryWriter()
    raw.raw(encodeNullableString(v))
    assert.deepEqual(Buffer.from(raw.bytes()), Buffer.from(w.bytes()))
  }
})
