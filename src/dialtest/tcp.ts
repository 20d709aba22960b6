/**
 * The TCP dial test: resolve (guarded), connect to the checked address, optionally send a
 * message and read up to 1 KiB of answer; connect time with and without DNS; traceroute on
 * request or when hops are checked.
 */
import net from 'node:net'
import { formatDuration } from '../shared/duration.js'
import { durationMs, parseGoDuration } from './duration.js'
import type { NetGuard } from './guard.js'
import { checkHops } from './hops.js'
import { checkString, compileOpts, tally } from './opts.js'
import { applyOutcome, decide } from './rule.js'
import { traceroute, type TracerouteConfig } from './traceroute.js'
import type { DialResult, Hop, NumberOpt, StringOpt, Verdict } from './types.js'

export interface TcpTask {
  name?: string
  host?: string
  port?: string | number
  message?: string
  timeout?: string
  enable_traceroute?: boolean
  traceroute_config?: TracerouteConfig
  success_when?: {
    response_time?: { is_contain_dns?: boolean; target?: string }[]
    hops?: NumberOpt[]
    response_message?: StringOpt[]
  }[]
  success_when_logic?: string
  tags?: Record<string, string>
}

const MAX_REPLY = 1024

export function checkTcpTask(t: TcpTask): void {
  if (!t.success_when?.length) throw new Error('no any check rule')
  if (!t.host) throw new Error('host should not be empty')
  if (t.port === undefined || t.port === '') throw new Error('port should not be empty')
  for (const c of t.success_when) {
    compileOpts(c.response_message)
    for (const r of c.response_time ?? []) if (r.target) parseGoDuration(r.target)
  }
  if (t.timeout) parseGoDuration(t.timeout)
}

function converse(ip: string, port: number, message: string, timeoutMs: number) {
  return new Promise<{ connectNs: bigint; reply: string }>((resolve, reject) => {
    const t0 = process.hrtime.bigint()
    let connectNs = 0n
    const chunks: Buffer[] = []
    const s = net.connect({ host: ip, port })
    const done = () => (
      s.destroy(),
      resolve({ connectNs, reply: Buffer.concat(chunks).toString('utf8').slice(0, MAX_REPLY) })
    )
    s.setTimeout(timeoutMs, () =>
      connectNs ? done() : s.destroy(new Error(`dial tcp ${ip}:${port}: i/o timeout`)),
    )
    s.on('error', reject)
    s.on('connect', () => {
      connectNs = process.hrtime.bigint() - t0
      if (!message) return done()
      s.write(message)
    })
    s.on(
      'data',
      (c: Buffer) => (chunks.push(c), Buffer.concat(chunks).length >= MAX_REPLY && done()),
    )
    s.on('end', done)
  })
}

function checks(
  t: TcpTask,
  connNs: bigint,
  dnsNs: bigint,
  reply: string,
  hops: Hop[] | null,
): Verdict {
  const v: Verdict = { reasons: [], passed: false }
  for (const c of t.success_when ?? []) {
    for (const r of c.response_time ?? []) {
      const target = r.target ? parseGoDuration(r.target) : 0n
      const cost = r.is_contain_dns ? connNs + dnsNs : connNs
      if (cost >= target)
        v.reasons.push(
          `TCP response time(${formatDuration(cost)}) larger equal than ${formatDuration(target)}`,
        )
      else if (target > 0n) v.passed = true
    }
    for (const o of c.response_message ?? []) tally(v, checkString(o, reply, 'response message'))
    if (hops) checkHops(v, hops, c.hops)
  }
  return v
}

export async function runTcp(t: TcpTask, guard: NetGuard): Promise<DialResult> {
  const port = Number(t.port)
  const tags: Record<string, string> = {
    name: t.name ?? '',
    dest_host: t.host ?? '',
    dest_port: String(t.port),
    dest_ip: '',
    proto: 'tcp',
  }
  let reqError = ''
  let dnsNs = 0n
  let conv = { connectNs: 0n, reply: '' }
  const t0 = process.hrtime.bigint()
  try {
    tags.dest_ip = (await guard.resolve(t.host ?? '')).address
    dnsNs = process.hrtime.bigint() - t0
    conv = await converse(tags.dest_ip, port, t.message ?? '', durationMs(t.timeout, 10_000))
  } catch (e) {
    reqError = (e as Error).message
  }
  const wantsHops = t.enable_traceroute || t.success_when?.some((c) => c.hops?.length)
  const trace =
    wantsHops && tags.dest_ip ? await traceroute(tags.dest_ip, t.traceroute_config, port) : null
  const hops = wantsHops ? (trace?.hops ?? []) : null
  const v = checks(t, conv.connectNs, dnsNs, conv.reply, hops)
  if (trace?.error) v.reasons.push(trace.error)
  const fields: Record<string, unknown> = {
    response_time: Number(conv.connectNs / 1000n),
    response_time_with_dns: Number((conv.connectNs + dnsNs) / 1000n),
  }
  if (t.message) fields.response_message = conv.reply
  if (hops) Object.assign(fields, { hops: hops.length, traceroute: JSON.stringify(hops) })
  Object.assign(tags, t.tags ?? {})
  applyOutcome(decide(v, reqError, t.success_when_logic), tags, fields)
  fields.message = JSON.stringify({ fail_reason: fields.fail_reason ?? '', status: tags.status })
  return { tags, fields, ...(hops ? { traceroute: hops } : {}) }
}
