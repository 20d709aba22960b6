/**
 * Body decompression by `encoding` (query) or `Content-Encoding`: gzip, deflate (raw or
 * zlib-wrapped), br and zstd. Both what a decoder may produce and what it may hold are bounded:
 * - output: every decoder stops as soon as it passes `limit` bytes (`bodyTooLarge`), so a
 *   small bomb never materialises more than the limit;
 * - memory: deflate's window is 32 KiB and brotli's at most 16 MiB (node:zlib never enables
 *   brotli's large windows), but a zstd frame may declare up to 2 GiB; frames declaring more
 *   than `ZSTD_MAX_WINDOW` are refused from their headers, before anything is allocated.
 */
import zlib from 'node:zlib'
import { Decompress } from 'fzstd'
import { FerryError } from '../errors.js'
import { gzipChunkSize } from './gzip-chunk.js'
import { checkZstdFrames } from './zstd-frames.js'

/**
 * 8 MiB: the window the zstd format asks every decoder to support, and the largest that zstd's
 * own levels 1-19 and the Go encoders use; only `--ultra`/`--long` frames need more.
 */
export const ZSTD_MAX_WINDOW = 8 * 1024 * 1024

function tooLarge(limit: number): FerryError {
  return new FerryError('bodyTooLarge', `decompressed body exceeds the limit of ${limit} bytes`)
}

/** A zlib stream starts with CMF/FLG where CM = 8 and the 16-bit header is a multiple of 31. */
function isZlibWrapped(b: Uint8Array): boolean {
  return b.length >= 2 && (b[0] & 0x0f) === 8 && ((b[0] << 8) | b[1]) % 31 === 0
}

function zstd(body: Uint8Array, limit: number): Uint8Array {
  checkZstdFrames(body, { maxWindow: ZSTD_MAX_WINDOW, maxOutput: limit })
  const chunks: Uint8Array[] = []
  let total = 0
  const d = new Decompress((chunk) => {
    total += chunk.length
    if (total > limit) throw tooLarge(limit)
    chunks.push(chunk)
  })
  d.push(body, true)
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)
}

function run(encoding: string, body: Uint8Array, limit: number): Uint8Array {
  const opts = { maxOutputLength: limit }
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.gunzipSync(body, { ...opts, chunkSize: gzipChunkSize(body, limit) })
    case 'deflate':
    case 'zlib':
      return isZlibWrapped(body) ? zlib.inflateSync(body, opts) : zlib.inflateRawSync(body, opts)
    case 'br':
      return zlib.brotliDecompressSync(body, opts)
    case 'zstd':
      return zstd(body, limit)
    default:
      throw new FerryError('decodeBodyFailed', `unsupported encoding ${JSON.stringify(encoding)}`)
  }
}

export function decompress(encoding: string, body: Uint8Array, limit: number): Uint8Array {
  const enc = encoding.trim().toLowerCase()
  if (enc === '' || enc === 'identity') return body
  try {
    return run(enc, body, limit)
  } catch (e) {
    if (e instanceof FerryError) throw e
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(limit)
    throw new FerryError('decodeBodyFailed', `cannot decode ${enc} body: ${(e as Error).message}`)
  }
}
