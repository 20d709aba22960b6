/**
 * Body decompression by `encoding` (query) or `Content-Encoding`: gzip, deflate (raw or
 * zlib-wrapped), br and zstd. The decompressed size is bounded while decompressing, so a small
 * bomb cannot exhaust memory: past `limit` bytes the body is refused with `bodyTooLarge`.
 */
import zlib from 'node:zlib'
import { Decompress } from 'fzstd'
import { FerryError } from '../errors.js'

function tooLarge(limit: number): FerryError {
  return new FerryError('bodyTooLarge', `decompressed body exceeds the limit of ${limit} bytes`)
}

/** A zlib stream starts with CMF/FLG where CM = 8 and the 16-bit header is a multiple of 31. */
function isZlibWrapped(b: Uint8Array): boolean {
  return b.length >= 2 && (b[0] & 0x0f) === 8 && ((b[0] << 8) | b[1]) % 31 === 0
}

function zstd(body: Uint8Array, limit: number): Uint8Array {
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
      return zlib.gunzipSync(body, opts)
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
