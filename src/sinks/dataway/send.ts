/**
 * One upload attempt: compress (off the main thread), POST with the reference agent's headers,
 * and classify the answer. 2xx is done; 408, 429, 5xx and network errors are retryable; any
 * other 4xx is permanent. Cross-cutting behaviour (timeout, retry, metrics) wraps this in
 * `wrappers.ts`.
 */
import os from 'node:os'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { compress as zstdCompress } from '@mongodb-js/zstd'
import { FerryError } from '../../errors.js'
import type { UploadBody } from './bodies.js'
import { upstreamPost, type PostAnswer } from './network.js'
import { writeUrl, type Compression, type Upstream } from './upstream.js'

const gzip = promisify(zlib.gzip)

/**
 * The output chunk of an upload's gzip: half the body, so one pass through the thread pool
 * usually holds all of it (protobuf bodies gzip to a fifth or less). With zlib's 16 KiB default
 * a 1 MiB body took a dozen passes, each a callback and a chunk on the HTTP thread. At most
 * half of `max_raw_body_size` per upload in flight.
 */
export function gzipChunkSize(bodyBytes: number): number {
  return Math.max(zlib.constants.Z_DEFAULT_CHUNK, bodyBytes >>> 1)
}

export type { Compression } from './upstream.js'

export interface SendOptions {
  compression: Compression
  gzipLevel: number
  userAgent: string
}

/** An attempt to deliver one body; rejects with FerryError uploadFailed | uploadRejected. */
export type Send = (body: UploadBody, signal: AbortSignal) => Promise<void>

export class UploadError extends FerryError {
  constructor(
    retryable: boolean,
    message: string,
    readonly httpStatus: number,
    readonly responseText = '',
    readonly retryAfterMs?: number,
  ) {
    super(retryable ? 'uploadFailed' : 'uploadRejected', message)
  }
}

export function userAgent(version: string, host: string): string {
  return `ferry-${os.platform()}-${os.arch()}/${version}/${host}`
}

async function encode(
  body: Uint8Array,
  o: SendOptions,
): Promise<{ data: Uint8Array; encoding?: string }> {
  if (o.compression === 'gzip')
    return {
      data: await gzip(body, { level: o.gzipLevel, chunkSize: gzipChunkSize(body.length) }),
      encoding: 'gzip',
    }
  if (o.compression === 'zstd')
    return {
      data: await zstdCompress(Buffer.from(body.buffer, body.byteOffset, body.byteLength)),
      encoding: 'zstd',
    }
  return { data: body }
}

/** Retry-After: seconds or an HTTP date. */
export function retryAfterMs(h: string | null): number | undefined {
  if (!h) return undefined
  const secs = Number(h)
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000)
  const at = Date.parse(h)
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now())
}

export function httpSend(up: Upstream, o: SendOptions): Send {
  return async (body, signal) => {
    const { data, encoding } = await encode(
      body.payload,
      up.compression ? { ...o, compression: up.compression } : o,
    )
    const headers: Record<string, string> = {
      'Content-Type': 'application/protobuf; proto=com.guance.Point',
      'X-Points': String(body.points),
      'X-Pkg-Id': body.pkgId,
      'User-Agent': o.userAgent,
      Referer: 'Ferry',
    }
    if (encoding) headers['Content-Encoding'] = encoding
    if (body.storageIndex) headers['X-Storage-Index-Name'] = body.storageIndex
    if (body.globalTags) headers['X-Global-Tags'] = body.globalTags
    let res: PostAnswer
    try {
      res = await upstreamPost(up, writeUrl(up, body.category), { headers, body: data, signal })
    } catch (e) {
      const why = signal.aborted
        ? 'timed out or cancelled'
        : (((e as Error).cause as Error)?.message ?? (e as Error).message)
      throw new UploadError(true, `upload to ${up.label} failed: ${why}`, 0)
    }
    const text = (await res.text()).slice(0, 2048)
    if (res.status >= 200 && res.status < 300) return
    const retryable = res.status === 408 || res.status === 429 || res.status >= 500
    throw new UploadError(
      retryable,
      `upload to ${up.label} answered ${res.status}`,
      res.status,
      text,
      retryAfterMs(res.header('retry-after')),
    )
  }
}
