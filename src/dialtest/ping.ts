/**
 * ICMP echo through the system `ping` (iputils): Node has no ICMP sockets, and the
 * unprivileged ICMP socket `ping` uses (net.ipv4.ping_group_range) or its setuid/capability
 * bit works without root. Packets go 200 ms apart, the shortest interval iputils allows a user.
 */
import { execFile } from 'node:child_process'
import net from 'node:net'

export interface PingResult {
  sent: number
  received: number
  /** Round trips in µs, in order. */
  rtts: number[]
  error: string
}

export function parsePing(out: string, count: number): Omit<PingResult, 'error'> {
  const rtts = [...out.matchAll(/time[=<]([\d.]+) ms/g)].map((m) => Number(m[1]) * 1000)
  const summary = /(\d+) packets transmitted, (\d+) (?:packets )?received/.exec(out)
  return {
    sent: summary ? Number(summary[1]) : count,
    received: summary ? Number(summary[2]) : rtts.length,
    rtts,
  }
}

export function ping(ip: string, count: number, timeoutMs: number): Promise<PingResult> {
  const waitS = Math.max(1, Math.ceil(timeoutMs / 1000))
  const deadline = Math.ceil(count * 0.2 + waitS)
  const args = [net.isIPv6(ip) ? '-6' : '-4', '-n', '-c', String(count), '-i', '0.2']
  args.push('-W', String(waitS), '-w', String(deadline), ip)
  return new Promise((resolve) => {
    const limit = (deadline + 2) * 1000
    execFile('ping', args, { timeout: limit, maxBuffer: 256 * 1024 }, (err, out, errOut) => {
      const r = parsePing(out, count)
      // ping exits 1 when replies are missing: that is a result, not an error.
      const broken = err && (err as { code?: unknown }).code !== 1 && !/transmitted/.test(out)
      const error = broken ? `ping failed: ${(errOut || err.message).trim().split('\n')[0]}` : ''
      resolve({ ...r, error })
    })
  })
}
