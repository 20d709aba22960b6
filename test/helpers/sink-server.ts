/**
 * A test upstream (the far side of the uploader): a real HTTP server that decodes what the
 * agent uploads (gzip/zstd, PBPoints), keeps every point, and can be told to fail: answer a
 * status, hang, or drop the connection. It answers `GET /v1/ntp` with its clock plus
 * `ntpSkewSeconds` (not counted as an upload), and serves https when given a key and cert.
 */
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'
import { decompress as zstdDecompress } from '@mongodb-js/zstd'
import { decodePoints } from '../../src/decode/codec/protobuf-decode.js'
import type { Point } from '../../src/shared/point.js'

export type Mode =
  | { kind: 'ok' }
  | { kind: 'status'; status: number; retryAfter?: string }
  | { kind: 'hang' }
  | { kind: 'close' }

export interface Received {
  category: string
  pkgId: string
  points: Point[]
  headers: http.IncomingHttpHeaders
}

export class SinkServer {
  mode: Mode = { kind: 'ok' }
  received: Received[] = []
  requests = 0
  ntpSkewSeconds = 0
  ntpRequests = 0
  private server: http.Server | null = null
  private hung: http.ServerResponse[] = []

  async start(port = 0, tls?: https.ServerOptions): Promise<string> {
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) =>
      void this.handle(req, res)
    this.server = tls ? https.createServer(tls, handler) : http.createServer(handler)
    await new Promise<void>((r) => this.server!.listen(port, '127.0.0.1', r))
    const scheme = tls ? 'https' : 'http'
    return `${scheme}://127.0.0.1:${(this.server.address() as AddressInfo).port}?token=tkn_0123456789abcdef0123456789abcdef`
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.method === 'GET' && req.url?.startsWith('/v1/ntp')) {
      this.ntpRequests++
      const timestamp_sec = Math.floor(Date.now() / 1000) + this.ntpSkewSeconds
      return void res.end(JSON.stringify({ timestamp_sec }))
    }
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    this.requests++
    const mode = this.mode
    if (mode.kind === 'hang') return void this.hung.push(res)
    if (mode.kind === 'close') return void req.socket.destroy()
    if (mode.kind === 'status') {
      res.writeHead(mode.status, mode.retryAfter ? { 'Retry-After': mode.retryAfter } : {})
      return void res.end(JSON.stringify({ error: `told to answer ${mode.status}` }))
    }
    let body: Buffer = Buffer.concat(chunks)
    const enc = req.headers['content-encoding']
    if (enc === 'gzip') body = zlib.gunzipSync(body)
    else if (enc === 'zstd') body = await zstdDecompress(body)
    const category = new URL(req.url!, 'http://x').pathname.split('/').pop()!
    this.received.push({
      category,
      pkgId: String(req.headers['x-pkg-id']),
      points: decodePoints(body),
      headers: req.headers,
    })
    res.end()
  }

  points(): Point[] {
    return this.received.flatMap((r) => r.points)
  }

  /** Values of one field over every received point. */
  values(field: string): unknown[] {
    return this.points().map((p) => p.fields.find((f) => f.key === field)?.value)
  }

  async stop(): Promise<void> {
    for (const r of this.hung) r.destroy()
    this.server?.closeAllConnections()
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()))
  }
}

/** Polls `cond` (which may be async; a throw counts as false) until it holds or time runs out. */
export async function waitFor(
  cond: () => boolean | Promise<boolean>,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<void> {
  const until = Date.now() + timeoutMs
  const check = async () => {
    try {
      return await cond()
    } catch {
      return false
    }
  }
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}
