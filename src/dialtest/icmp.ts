/** The ICMP dial test: packet count, round-trip statistics, loss, optional traceroute. */
import { durationMs, parseGoDuration } from './duration.js'
import type { NetGuard } from './guard.js'
import { checkHops } from './hops.js'
import { checkNumber } from './opts.js'
import { ping } from './ping.js'
import { applyOutcome, decide } from './rule.js'
import { stats } from './stats.js'
import { traceroute, type TracerouteConfig } from './traceroute.js'
import type { DialResult, Hop, NumberOpt, Verdict } from './types.js'

export interface IcmpTask {
  name?: string
  host?: string
  packet_count?: number
  timeout?: string
  enable_traceroute?: boolean
  traceroute_config?: TracerouteConfig
  success_when?: {
    packet_loss_percent?: NumberOpt[]
    response_time?: { func?: string; op?: string; target?: string }[]
    hops?: NumberOpt[]
    packets?: NumberOpt[]
  }[]
  success_when_logic?: string
  tags?: Record<string, string>
}

/** At most this many echoes per debug task. */
const MAX_PACKETS = 20

export function checkIcmpTask(t: IcmpTask): void {
  if (!t.success_when?.length) throw new Error('no any check rule')
  if (!t.host) throw new Error('host should not be empty')
  for (const c of t.success_when)
    for (const r of c.response_time ?? []) if (r.target) parseGoDuration(r.target)
  if (t.timeout) parseGoDuration(t.timeout)
}

type Rtt = ReturnType<typeof stats>

function checks(t: IcmpTask, s: Rtt, loss: number, received: number, hops: Hop[] | null): Verdict {
  const v: Verdict = { reasons: [], passed: false }
  for (const c of t.success_when ?? []) {
    for (const r of c.response_time ?? []) {
      const f = (r.func ?? 'avg') as keyof Rtt
      const target = Number(parseGoDuration(r.target ?? '0s') / 1000n)
      const err = received === 0 ? null : checkNumber({ op: r.op, target }, s[f] ?? s.avg)
      if (received === 0) v.reasons.push('all packets lost')
      else if (err) v.reasons.push(`ICMP round-trip(${r.func}) check failed: ${err}`)
      else v.passed = true
    }
    for (const o of c.packet_loss_percent ?? []) {
      const err = checkNumber(o, loss)
      if (err) v.reasons.push(`packet_loss_percent check failed: ${err}`)
      else v.passed = true
    }
    for (const o of c.packets ?? []) {
      const err = checkNumber(o, received)
      if (err) v.reasons.push(`packets received check failed: ${err}`)
      else v.passed = true
    }
    if (hops) checkHops(v, hops, c.hops)
  }
  return v
}

const millis = (us: number) => Math.round(us) / 1000

/** The round trip times (µs, and ms rounded to the µs), the loss and the packet counts. */
function pingFields(
  s: ReturnType<typeof stats>,
  loss: number,
  r: { sent: number; received: number },
): Record<string, unknown> {
  return {
    average_round_trip_time_in_millis: millis(s.avg),
    average_round_trip_time: s.avg,
    min_round_trip_time_in_millis: millis(s.min),
    min_round_trip_time: s.min,
    std_round_trip_time_in_millis: millis(s.std),
    std_round_trip_time: s.std,
    max_round_trip_time_in_millis: millis(s.max),
    max_round_trip_time: s.max,
    packet_loss_percent: loss,
    packets_sent: r.sent,
    packets_received: r.received,
  }
}

export async function runIcmp(t: IcmpTask, guard: NetGuard): Promise<DialResult> {
  const count = Math.min(MAX_PACKETS, Math.max(1, Math.trunc(t.packet_count ?? 3) || 3))
  const tags: Record<string, string> = {
    name: t.name ?? '',
    dest_host: t.host ?? '',
    proto: 'icmp',
  }
  let reqError = ''
  let r = { sent: count, received: 0, rtts: [] as number[], error: '' }
  let ip = ''
  try {
    ip = (await guard.resolve(t.host ?? '')).address
    r = await ping(ip, count, durationMs(t.timeout, 3000))
    reqError = r.error
  } catch (e) {
    reqError = (e as Error).message
  }
  const s = stats(r.rtts)
  const loss = r.sent ? ((r.sent - r.received) / r.sent) * 100 : 100
  const wantsHops = t.enable_traceroute || t.success_when?.some((c) => c.hops?.length)
  const trace = wantsHops && ip ? await traceroute(ip, t.traceroute_config) : null
  const hops = wantsHops ? (trace?.hops ?? []) : null
  const v = checks(t, s, loss, r.received, hops)
  if (trace?.error) v.reasons.push(trace.error)
  const fields = pingFields(s, loss, r)
  if (hops) Object.assign(fields, { hops: hops.length, traceroute: JSON.stringify(hops) })
  Object.assign(tags, t.tags ?? {})
  applyOutcome(decide(v, reqError, t.success_when_logic), tags, fields)
  fields.message = JSON.stringify({ fail_reason: fields.fail_reason ?? '', status: tags.status })
  return { tags, fields, ...(hops ? { traceroute: hops } : {}) }
}
