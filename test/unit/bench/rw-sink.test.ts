/**
 * The benchmark's remote write sink counts what vmagent delivered: its Snappy block decoder
 * (literals, overlapping copies) and the sample count of a WriteRequest.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { snappyDecode } from '../../../bench/lib/snappy.js'
import { countSamples } from '../../../bench/lib/rw-sink.js'

test('snappy: a literal then an overlapping one-byte-offset copy', () => {
  // 12 bytes: literal "abc" (tag (3-1)<<2), copy of 9 at offset 3 (tag ((9-4)<<2)|1, offset 3).
  const block = Uint8Array.from([12, 0x08, 0x61, 0x62, 0x63, 0x15, 3])
  assert.equal(Buffer.from(snappyDecode(block)).toString(), 'abcabcabcabc')
})

test('snappy: a two-byte-offset copy and a long literal', () => {
  const text = 'x'.repeat(70)
  // Literal of 70: tag 60<<2 then one length byte (70-1); then copy 5 from offset 70 (tag (5-1)<<2|2).
  const block = Uint8Array.from([75, 60 << 2, 69, ...Buffer.from(text), (4 << 2) | 2, 70, 0])
  assert.equal(Buffer.from(snappyDecode(block)).toString(), 'x'.repeat(75))
})

test('snappy: a copy before any output is refused', () => {
  assert.throws(() => snappyDecode(Uint8Array.from([4, 0x01, 1])))
})

test('countSamples: samples of every series, labels and metadata skipped', () => {
  const label = [0x0a, 2, 0x0a, 0] // Label { name: "" } (field 1 of the series)
  const sample = [0x12, 2, 0x10, 1] // Sample { timestamp: 1 } (field 2 of the series)
  const series = (n: number) => {
    const inner = [...label, ...Array.from({ length: n }, () => sample).flat()]
    return [0x0a, inner.length, ...inner]
  }
  const metadata = [0x1a, 2, 0x08, 1]
  const msg = [...series(2), ...series(3), ...metadata]
  // A Snappy block holding the message as one literal.
  const block = Uint8Array.from([msg.length, (msg.length - 1) << 2, ...msg])
  assert.equal(countSamples(block), 5)
})
