/**
 * One HTTP request and its timings (µs) from the socket's own events: `lookup` (DNS),
 * `connect` (TCP), `secureConnect` (TLS), the response head (first byte) and the body's end.
 * A fresh socket per request (no agent), so every request pays and measures each phase.
 */
import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import tls from 'node:tls'
import type { NetGuard } from '../guard.js'
import { tunnel } from './proxy.js'

export interface Timings {
  dns: number
  connection: number
  ssl: number
  ttfb: number
  download: number
  total: number
}

export interface HopRequest {
  url: URL
  method: string
  headers: Record<string, string>
  body: Buffer | null
  tls: { rejectUnauthorized: boolean; cert?: string; key?: string; ca?: string }
  proxy?: { url: URL; headers: Record<string, string> }
  /** Milliseconds left for this request. */
  timeoutMs: number
  /** Bytes of body kept; the rest is not read. */
  maxBody: number
}

export interface Exchange {
  status: number
  statusText: string
  proto: string
  headers: http.IncomingHttpHeaders
  rawHeaders: string[]
  body: Buffer
  destIp: string
  timings: Timings
}

const us = (from: number, to: number) => (to > from ? (to - from) * 1000 : 0)

function collect(
  res: http.IncomingMessage,
  max: number,
  done: (body: Buffer) => void,
  fail: (e: Error) => void,
) {
  const chunks: Buffer[] = []
  let size = 0
  res.on('data', (c: Buffer) => {
    if (size >= max) return
    chunks.push(c.subarray(0, max - size))
    size += c.length
    // Past the limit the rest is not downloaded: the socket closes.
    if (size >= max) done(Buffer.concat(chunks))
  })
  res.on('end', () => done(Buffer.concat(chunks)))
  res.on('error', fail)
}

async function options(r: HopRequest, guard: NetGuard): Promise<https.RequestOptions> {
  const tlsOpts = { ...r.tls, servername: r.url.hostname.replace(/^\[|\]$/g, '') }
  const base = { method: r.method, headers: r.headers, agent: false as const, ...tlsOpts }
  if (!r.proxy) return { ...base, lookup: guard.lookup as never }
  if (r.url.protocol === 'http:')
    return {
      ...base,
      host: r.proxy.url.hostname,
      port: r.proxy.url.port || 80,
      path: r.url.href,
      headers: { ...r.headers, ...r.proxy.headers },
      lookup: guard.lookup as never,
    }
  const socket = await tunnel(r.proxy, r.url, guard, r.timeoutMs)
  return { ...base, createConnection: () => tls.connect({ ...tlsOpts, socket }) as never }
}

export async function exchange(r: HopRequest, guard: NetGuard): Promise<Exchange> {
  const t = { start: performance.now(), dns: 0, conn: 0, tls: 0, head: 0, end: 0 }
  // Node skips `lookup` for an address literal: check it here, before any connection.
  for (const u of [r.url, r.proxy?.url])
    if (u && net.isIP(u.hostname.replace(/^\[|\]$/g, ''))) await guard.resolve(u.hostname)
  const opts = await options(r, guard)
  const mod = r.url.protocol === 'https:' ? https : http
  return new Promise<Exchange>((resolve, reject) => {
    const req = opts.path ? mod.request(opts) : mod.request(r.url, opts)
    const timer = setTimeout(
      () => req.destroy(new Error(`${r.method} "${r.url.href}": context deadline exceeded`)),
      r.timeoutMs,
    )
    let destIp = ''
    req.on('socket', (s: net.Socket) => {
      s.once('lookup', () => (t.dns = performance.now()))
      s.once('connect', () => ((t.conn = performance.now()), (destIp = s.remoteAddress ?? '')))
      s.once('secureConnect', () => (t.tls = performance.now()))
    })
    req.on('error', (e) => (clearTimeout(timer), reject(e)))
    req.on('response', (res) => {
      t.head = performance.now()
      collect(
        res,
        r.maxBody,
        (body) => {
          clearTimeout(timer)
          t.end = performance.now()
          if (!res.complete) req.destroy()
          resolve(finish(res, body, destIp || req.socket?.remoteAddress || '', t))
        },
        (e) => (clearTimeout(timer), reject(e)),
      )
    })
    req.end(r.body ?? undefined)
  })
}

function finish(
  res: http.IncomingMessage,
  body: Buffer,
  destIp: string,
  t: { start: number; dns: number; conn: number; tls: number; head: number; end: number },
): Exchange {
  const dnsEnd = t.dns || t.start
  const connEnd = t.conn || dnsEnd
  const tlsEnd = t.tls || connEnd
  return {
    status: res.statusCode ?? 0,
    statusText: res.statusMessage ?? '',
    proto: `HTTP/${res.httpVersion}`,
    headers: res.headers,
    rawHeaders: res.rawHeaders,
    body,
    destIp,
    timings: {
      dns: us(t.start, t.dns),
      connection: us(dnsEnd, t.conn),
      ssl: us(connEnd, t.tls),
      ttfb: us(tlsEnd, t.head),
      download: us(t.head, t.end),
      total: us(t.start, t.end),
    },
  }
}
