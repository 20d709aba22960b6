/**
 * Inflation in slices stops at the point cap without changing any answer: the bytes are those
 * of `decompress`, and only a body the full parse refuses with tooManyPoints is refused early.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import zlib from 'node:zlib'
import { decompress } from '../../../src/decode/decompress.js'
import { decompressCapped, ONE_CALL_MAX } from '../../../src/decode/decompress-capped.js'
import { gzipChunkSize } from '../../../src/decode/gzip-chunk.js'
import { parseBody } from '../../../src/decode/parse-body.js'
import { capPlain } from '../../../src/decode/point-cap.js'

const MIB = 1024 * 1024
const lines = (n: number, line = 'm f=1i') => Array.from({ length: n }, () => line).join('\n')
const gz = (s: string) => zlib.gzipSync(Buffer.from(s))

test('a body under the cap inflates to the same bytes by every encoding', async () => {
  const text = lines(20_000, 'cpu,host=a usage=1.5 1700000000000000000')
  const raw = Buffer.from(text)
  for (const [enc, body] of [
    ['gzip', zlib.gzipSync(raw)],
    ['deflate', zlib.deflateSync(raw)],
    ['deflate', zlib.deflateRawSync(raw)],
    ['br', zlib.brotliCompressSync(raw)],
  ] as const) {
    const out = await decompressCapped(enc, body, 64 * MIB, 20_000)
    assert.deepEqual(Buffer.from(out), Buffer.from(decompress(enc, body, 64 * MIB)), enc)
  }
})

test('past the cap: tooManyPoints after inflating a fraction of the body', async () => {
  const body = gz(lines(2_000_000))
  await assert.rejects(decompressCapped('gzip', body, 64 * MIB, 1000), { code: 'tooManyPoints' })
})

test('blank, comment and bad lines do not count: the full parse decides', async () => {
  const text = [lines(5), '', '# note', 'bad line', lines(5)].join('\n').repeat(2000)
  const body = gz(text)
  const out = await decompressCapped('gzip', body, 64 * MIB, 20_000)
  assert.equal(out.length, Buffer.byteLength(text))
  assert.throws(() => parseBody('', out, 20_000), { code: 'invalidLinePoint' })
})

test('a quoted string spanning newlines is never cut into points', async () => {
  const long = `m s="${'\nx=1i'.repeat(50_000)}"`
  const text = [lines(10), long, lines(10)].join('\n')
  const out = await decompressCapped('gzip', gz(text), 64 * MIB, 100)
  assert.equal(Buffer.from(out).toString(), text)
})

test('a JSON array sent as text is never probed; the byte limit still holds', async () => {
  const json = JSON.stringify(Array.from({ length: 5000 }, () => ({ measurement: 'm' })))
  const out = await decompressCapped('gzip', gz(`\n${json.split(',').join(',\n')}`), MIB, 10)
  assert.ok(out.length > 0)
  await assert.rejects(decompressCapped('gzip', gz(lines(400_000)), MIB, Infinity), {
    code: 'bodyTooLarge',
  })
})

test('an uncompressed body is watched the same way: refused only when the full parse would be', () => {
  const over = Buffer.from(lines(2_000_000))
  assert.throws(() => capPlain(over, 1000), { code: 'tooManyPoints' })
  assert.throws(() => parseBody('', over, 1000), { code: 'tooManyPoints' })
  // Blank, comment and bad lines: more lines than the cap, but the full parse decides.
  const mixed = Buffer.from([lines(5), '', '# note', 'bad line', lines(5)].join('\n').repeat(2000))
  capPlain(mixed, 20_000)
  assert.throws(() => parseBody('', mixed, 20_000), { code: 'invalidLinePoint' })
  const long = Buffer.from([lines(10), `m s="${'\nx=1i'.repeat(50_000)}"`, lines(10)].join('\n'))
  capPlain(long, 100)
  assert.equal(parseBody('', long, 100).points.length, 21)
})

test('a gzip body declaring at most ONE_CALL_MAX inflates in one call into one buffer', async () => {
  const rows = Array.from({ length: 5000 }, (_, i) => `cpu,host=h${i % 97} usage=${i * 7919}i`)
  const text = Buffer.from(rows.join('\n'))
  assert.ok(gz(text.toString()).length > 4096) // past the small bodies' path
  const out = await decompressCapped('gzip', gz(text.toString()), 64 * MIB, 20_000)
  assert.deepEqual(Buffer.from(out), text)
  assert.equal(out.buffer.byteLength, text.length + 64) // the declared size: no pieces joined
  assert.equal(Object.getPrototypeOf(out), Uint8Array.prototype)
})

test('one call: a bomb under ONE_CALL_MAX is still refused by the cap, the limit by size', async () => {
  // 2.6 MB of tiny lines, declared in its trailer, in a body past the small bodies' path.
  const bomb = gz(Array.from({ length: 300_000 }, (_, i) => `m f=${i % 9973}i`).join('\n'))
  assert.ok(gzipChunkSize(bomb, 64 * MIB) <= ONE_CALL_MAX && bomb.length > 4096)
  await assert.rejects(decompressCapped('gzip', bomb, 64 * MIB, 1000), { code: 'tooManyPoints' })
  await assert.rejects(decompressCapped('gzip', bomb, MIB, Infinity), {
    code: 'bodyTooLarge',
    message: `decompressed body exceeds the limit of ${MIB} bytes`,
  })
  const bad = Buffer.from(bomb)
  bad[bad.length - 12] ^= 0xff // damaged: the same refusal as the streaming path gives
  await assert.rejects(decompressCapped('gzip', bad, 64 * MIB, Infinity), {
    code: 'decodeBodyFailed',
  })
})

test('one call: a trailer declaring too little falls back to streaming, same bytes', async () => {
  const text = lines(1_000_000) // 7 MB: past ONE_CALL_MAX
  const honest = gz(text)
  const two = Buffer.concat([gz('m f=1i\n'), honest]) // the last member's size is declared
  const lying = Buffer.from(two)
  assert.ok(gzipChunkSize(two, 64 * MIB) > ONE_CALL_MAX)
  lying.writeUInt32LE(100, lying.length - 4) // claims 100 bytes: the one call overflows
  await assert.rejects(decompressCapped('gzip', lying, 64 * MIB, Infinity), {
    code: 'decodeBodyFailed',
  })
  const small = Buffer.concat([gz(text), gz('m f=1i')]) // declares 6 bytes, inflates to 7 MB
  const out = await decompressCapped('gzip', small, 64 * MIB, Infinity)
  assert.equal(Buffer.from(out).toString(), `${text}m f=1i`)
})
