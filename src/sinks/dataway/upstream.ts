/**
 * An upstream from `[dataway] urls`: `http(s)://host:port?token=tkn_...`. As in the reference
 * agent, the URL's path is ignored and every query parameter is kept on each request.
 */
import crypto from 'node:crypto'
import type { Dispatcher } from 'undici'
import type { NativeClient } from './native-client.js'

/** How upload bodies are compressed (`[dataway] compression`). */
export type Compression = 'gzip' | 'zstd' | 'none'

export interface Upstream {
  /** Stable id for cursors: a hash of the URL (the token never reaches labels or logs). */
  id: string
  /** `host:port`, for metric labels and logs. */
  label: string
  origin: string
  query: string
  token: string
  /** Its connection pool (proxy, TLS: network.ts); absent means the process's default one. */
  dispatcher?: Dispatcher
  /** Node's client for uploads and the clock check, when reached directly (network.ts). */
  native?: NativeClient
  /**
   * Overrides `[dataway] compression` for this upstream: the embedded workspace, in the same
   * process, takes bodies uncompressed (compressing for a loopback hop only costs CPU twice).
   */
  compression?: Compression
  /**
   * Overrides `[dataway] max_raw_body_size` for this upstream: the embedded workspace takes
   * larger bodies, so its commits are larger (`[workspace] embedded_body_size`).
   */
  maxRawBodySize?: number
}

export function parseUpstream(raw: string): Upstream {
  const u = new URL(raw)
  const params = [...u.searchParams.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return {
    id: crypto
      .createHash('sha256')
      .update(`${u.origin}?${new URLSearchParams(params)}`)
      .digest('hex')
      .slice(0, 16),
    label: u.host,
    origin: u.origin,
    query: new URLSearchParams(params).toString(),
    token: u.searchParams.get('token') ?? '',
  }
}

export function writeUrl(up: Upstream, category: string): string {
  return `${up.origin}/v1/write/${category}${up.query ? `?${up.query}` : ''}`
}
