/**
 * Gzip bodies inflate into one buffer of the size their trailer declares (no join of 16 KiB
 * pieces); a trailer that lies, several members or a bomb change nothing but the cost.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import zlib from 'node:zlib'
import { decompress } from '../../../src/decode/decompress.js'
import { gzipChunkSize } from '../../../src/decode/gzip-chunk.js'
import { FerryError } from '../../../src/errors.js'

const text = Buffer.from('cpu,host=a usage=1.5 1700000000000000000\n'.repeat(5000))
const LIMIT = 64 << 20

test('a one-member body inflates into a single buffer of its declared size', () => {
  const gz = zlib.gzipSync(text)
  assert.equal(gzipChunkSize(gz, LIMIT), text.length + 64)
  const out = decompress('gzip', gz, LIMIT)
  assert.deepEqual(Buffer.from(out), text)
  assert.equal(out.buffer.byteLength, text.length + 64) // one allocation, not pieces joined
})

test('a lying trailer, two members and tiny bodies still inflate exactly', () => {
  const gz = zlib.gzipSync(text)
  const lying = Buffer.from(gz)
  lying.writeUInt32LE(100, lying.length - 4)
  // The lie fails gzip's own length check: an error, as without the chunk size.
  assert.throws(() => decompress('gzip', lying, LIMIT), FerryError)
  const two = Buffer.concat([zlib.gzipSync(text.subarray(0, 1000)), zlib.gzipSync(text)])
  assert.deepEqual(
    Buffer.from(decompress('gzip', two, LIMIT)),
    Buffer.concat([text.subarray(0, 1000), text]),
  )
  assert.equal(gzipChunkSize(Buffer.alloc(5), LIMIT), 16 * 1024)
})

test('the declared size never sizes past the ratio deflate allows, nor past the limit', () => {
  const small = zlib.gzipSync(Buffer.from('x'))
  const claims = Buffer.from(small)
  claims.writeUInt32LE(0xffffffff, claims.length - 4)
  assert.equal(gzipChunkSize(claims, LIMIT), claims.length * 1032 + 64)
  const bomb = zlib.gzipSync(Buffer.alloc(4 << 20))
  assert.equal(gzipChunkSize(bomb, 1 << 20), (1 << 20) + 64)
  assert.throws(
    () => decompress('gzip', bomb, 1 << 20),
    (e: unknown) => e instanceof FerryError && e.code === 'bodyTooLarge',
  )
})
