/**
 * Decompression in slices for a line protocol write: output is handed over a chunk at a time
 * and stops as soon as it passes the byte limit (`bodyTooLarge`) or, by `PointCap`, holds more
 * than `max_points_per_request` points (`tooManyPoints`), so a small body that inflates to
 * millions of tiny points costs the inflation and parse of a little more than the cap.
 *
 * Invariants: the output is the bytes `decompress` gives, and a body it accepts is accepted here.
 * Only the order of two refusals may differ: a body past both caps is refused by the one reached
 * first (both are 413). Small gzip/deflate bodies (at most 1032 times `SYNC_MAX` out) take the
 * one-call path, and so does a gzip body whose trailer declares at most `ONE_CALL_MAX` bytes:
 * it inflates on this (worker) thread into one buffer of its declared size, which the
 * transcoder reads as is (no 256 KiB pieces, no join, no hop to the thread pool), and the point
 * cap then watches that output like an uncompressed body's. A body inflating past `ONE_CALL_MAX`
 * (a lying trailer, several members) costs that much and streams again from the start. Larger
 * ones stream through node:zlib (its thread pool), and zstd input is pushed in slices so its
 * output arrives in pieces too.
 */
import zlib from 'node:zlib'
import type { Transform } from 'node:stream'
import { Decompress } from 'fzstd'
import { FerryError } from '../errors.js'
import { decompress, isZlibWrapped, tooLarge, ZSTD_MAX_WINDOW } from './decompress.js'
import { gzipChunkSize } from './gzip-chunk.js'
import { capPlain, PointCap } from './point-cap.js'
import { checkZstdFrames } from './zstd-frames.js'

const SYNC_MAX = 4 * 1024
/**
 * 4 MiB: the most a gzip body inflates in one call before the point cap looks at it, so the
 * most a bomb of tiny lines costs past what streaming would (a few milliseconds of inflation).
 */
export const ONE_CALL_MAX = 4 * 1024 * 1024
const CHUNK = 256 * 1024
/** zstd input per push: RLE blocks may still give up to one 128 KiB block per few bytes. */
const ZSTD_SLICE = 4 * 1024

class Collector {
  private chunks: Uint8Array[] = []
  private total = 0
  private readonly cap: PointCap

  constructor(
    readonly limit: number,
    maxPoints: number,
  ) {
    this.cap = new PointCap(maxPoints)
  }

  add(chunk: Uint8Array): void {
    this.total += chunk.length
    if (this.total > this.limit) throw tooLarge(this.limit)
    this.chunks.push(chunk)
    this.cap.see(chunk, this.total, () => this.joined())
  }

  joined(): Uint8Array {
    if (this.chunks.length !== 1) this.chunks = [Buffer.concat(this.chunks)]
    return this.chunks[0] ?? new Uint8Array(0)
  }
}

function zstdSlices(body: Uint8Array, out: Collector): Uint8Array {
  checkZstdFrames(body, { maxWindow: ZSTD_MAX_WINDOW, maxOutput: out.limit })
  const d = new Decompress((chunk) => out.add(chunk))
  for (let at = 0; at < body.length; at += ZSTD_SLICE) {
    const end = Math.min(body.length, at + ZSTD_SLICE)
    d.push(body.subarray(at, end), end === body.length)
  }
  if (body.length === 0) d.push(body, true)
  return out.joined()
}

function inflater(enc: string, body: Uint8Array): Transform | null {
  const opts = { chunkSize: CHUNK }
  if (enc === 'gzip' || enc === 'x-gzip') return zlib.createGunzip(opts)
  if (enc === 'deflate' || enc === 'zlib')
    return isZlibWrapped(body) ? zlib.createInflate(opts) : zlib.createInflateRaw(opts)
  if (enc === 'br') return zlib.createBrotliDecompress(opts)
  return null
}

function stream(z: Transform, enc: string, body: Uint8Array, out: Collector): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    z.on('data', (chunk: Buffer) => {
      try {
        out.add(chunk)
      } catch (e) {
        z.destroy()
        reject(e as Error)
      }
    })
    z.on('error', (e) =>
      reject(new FerryError('decodeBodyFailed', `cannot decode ${enc} body: ${e.message}`)),
    )
    z.on('end', () => resolve(out.joined()))
    z.end(body)
  })
}

/** Whether the body is gzip whose trailer (ISIZE) declares at most `ONE_CALL_MAX` bytes out. */
function fitsOneCall(enc: string, body: Uint8Array, limit: number): boolean {
  if ((enc !== 'gzip' && enc !== 'x-gzip') || body.length < 18) return false
  return gzipChunkSize(body, limit) <= ONE_CALL_MAX
}

/**
 * One inflation into one buffer, by `decompress` capped at `ONE_CALL_MAX`; null when the output
 * passes that cap but not the limit (a lying trailer, several members: stream instead).
 */
function gunzipOnce(body: Uint8Array, limit: number): Uint8Array | null {
  const max = Math.min(limit, ONE_CALL_MAX)
  try {
    const out = decompress('gzip', body, max)
    // A plain view, as a transferred body arrives: the transcoder's reads stay monomorphic.
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength)
  } catch (e) {
    if (max < limit && e instanceof FerryError && e.code === 'bodyTooLarge') return null
    throw e
  }
}

export async function decompressCapped(
  encoding: string,
  body: Uint8Array,
  limit: number,
  maxPoints: number,
): Promise<Uint8Array> {
  const enc = encoding.trim().toLowerCase()
  const out = new Collector(limit, maxPoints)
  if (enc === 'zstd') return wrapZstd(() => zstdSlices(body, out))
  const once =
    body.length > SYNC_MAX && fitsOneCall(enc, body, limit) ? gunzipOnce(body, limit) : null
  if (once) {
    capPlain(once, maxPoints)
    return once
  }
  const z = body.length > SYNC_MAX || enc === 'br' ? inflater(enc, body) : null
  return z ? stream(z, enc, body, out) : decompress(encoding, body, limit)
}

function wrapZstd(run: () => Uint8Array): Uint8Array {
  try {
    return run()
  } catch (e) {
    if (e instanceof FerryError) throw e
    throw new FerryError('decodeBodyFailed', `cannot decode zstd body: ${(e as Error).message}`)
  }
}
