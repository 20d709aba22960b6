/**
 * The WebSocket dial test: resolve (guarded), open `ws`/`wss` to the checked address (`wss`
 * without certificate checks, as the reference), send one text message, read one reply, close.
 * The `ws` library loads with the first WebSocket test (about 7 MB of the HTTP thread's heap
 * that an agent without one never holds).
 */
import type dns from 'node:dns'
import type http from 'node:http'
import type WebSocket from 'ws'
import { formatDuration } from '../shared/duration.js'
import { durationMs, parseGoDuration } from './duration.js'
import type { NetGuard } from './guard.js'
import { checkString, compileOpts, tally } from './opts.js'
import { applyOutcome, decide } from './rule.js'
import type { DialResult, StringOpt, Verdict } from './types.js'

export interface WsTask {
  name?: string
  url?: string
  message?: string
  success_when?: {
    response_time?: { is_contain_dns?: boolean; target?: string }[]
    response_message?: StringOpt[]
    header?: Record<string, StringOpt[]>
  }[]
  success_when_logic?: string
  advance_options?: {
    request_options?: { timeout?: string; headers?: Record<string, string> }
    auth?: { username?: string; password?: string }
  }
  tags?: Record<string, string>
}

export function checkWsTask(t: WsTask): void {
  if (!t.success_when?.length) throw new Error('no any check rule')
  if (!t.url) throw new Error('URL should not be empty')
  for (const c of t.success_when) {
    compileOpts(c.response_message)
    for (const r of c.response_time ?? []) if (r.target) parseGoDuration(r.target)
  }
  durationMs(t.advance_options?.request_options?.timeout, 0)
}

interface Talk {
  openNs: bigint
  reply: string
  headers: http.IncomingHttpHeaders
}

async function talk(t: WsTask, addr: dns.LookupAddress, timeoutMs: number): Promise<Talk> {
  const { default: WebSocket } = await import('ws')
  const headers: Record<string, string> = { ...t.advance_options?.request_options?.headers }
  const auth = t.advance_options?.auth
  if (auth?.username)
    headers.Authorization = `Basic ${Buffer.from(`${auth.username}:${auth.password ?? ''}`).toString('base64')}`
  const lookup = (_h: string, o: dns.LookupOptions, cb: (...a: unknown[]) => void) =>
    o.all ? cb(null, [addr]) : cb(null, addr.address, addr.family)
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint()
    const ws = new WebSocket(t.url ?? '', {
      headers,
      handshakeTimeout: timeoutMs,
      rejectUnauthorized: false,
      lookup: lookup as never,
      maxPayload: 1024 * 1024,
    })
    const out: Talk = { openNs: 0n, reply: '', headers: {} }
    const timer = setTimeout(
      () => (ws.terminate(), reject(new Error('websocket: read timeout'))),
      timeoutMs,
    )
    ws.on('upgrade', (res) => (out.headers = res.headers))
    ws.on('open', () => ((out.openNs = process.hrtime.bigint() - t0), ws.send(t.message ?? '')))
    ws.on('message', (data: WebSocket.RawData) => {
      clearTimeout(timer)
      out.reply = Buffer.isBuffer(data) ? data.toString('utf8') : String(data)
      ws.close()
      resolve(out)
    })
    ws.on('error', (e) => (clearTimeout(timer), reject(e)))
  })
}

function checks(t: WsTask, w: Talk, dnsNs: bigint, ok: boolean): Verdict {
  const v: Verdict = { reasons: [], passed: false }
  for (const c of t.success_when ?? []) {
    for (const r of c.response_time ?? []) {
      const target = r.target ? parseGoDuration(r.target) : 0n
      const cost = r.is_contain_dns ? w.openNs + dnsNs : w.openNs
      if (cost > target && target > 0n)
        v.reasons.push(
          `response time(${formatDuration(cost)}) larger than ${formatDuration(target)}`,
        )
      else if (target > 0n) v.passed = true
    }
    if (!ok) continue
    for (const o of c.response_message ?? []) tally(v, checkString(o, w.reply, 'response message'))
    for (const [k, opts] of Object.entries(c.header ?? {})) {
      const h = w.headers[k.toLowerCase()]
      const val = Array.isArray(h) ? (h[0] ?? '') : (h ?? '')
      for (const o of opts) tally(v, checkString(o, val, `Websocket header \`${k}'`))
    }
  }
  return v
}

export async function runWs(t: WsTask, guard: NetGuard): Promise<DialResult> {
  const tags: Record<string, string> = { name: t.name ?? '', url: t.url ?? '', proto: 'websocket' }
  let reqError = ''
  let dnsNs = 0n
  let w: Talk = { openNs: 0n, reply: '', headers: {} }
  const t0 = process.hrtime.bigint()
  try {
    const addr = await guard.resolve(new URL(t.url ?? '').hostname)
    dnsNs = process.hrtime.bigint() - t0
    w = await talk(t, addr, durationMs(t.advance_options?.request_options?.timeout, 30_000))
  } catch (e) {
    reqError = (e as Error).message
  }
  const fields: Record<string, unknown> = {
    response_time: Number(w.openNs / 1000n),
    response_time_with_dns: Number((w.openNs + dnsNs) / 1000n),
    response_message: w.reply,
    sent_message: t.message ?? '',
  }
  Object.assign(tags, t.tags ?? {})
  applyOutcome(decide(checks(t, w, dnsNs, !reqError), reqError, t.success_when_logic), tags, fields)
  fields.message = JSON.stringify({ fail_reason: fields.fail_reason ?? '', status: tags.status })
  return { tags, fields }
}
