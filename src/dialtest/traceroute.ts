/**
 * Traceroute for TCP and ICMP tasks through the system `traceroute` (`-I` ICMP echo, `-T` TCP
 * SYN; both need CAP_NET_RAW): Node has no raw or TTL-settable sockets. Limits as the
 * reference's: hops <= 60, retries <= 3, timeout <= 10 s. Without the binary or the privilege
 * the task reports why and has no hops.
 */
import { execFile } from 'node:child_process'
import type { Hop } from './types.js'
import { durationMs } from './duration.js'
import { stats } from './stats.js'

export interface TracerouteConfig {
  hops?: number
  retry?: number
  timeout?: string
}

const clamp = (v: number | undefined, def: number, max: number) =>
  Math.min(max, Math.max(1, Math.trunc(v ?? def) || def))

/** One output line (`3  10.0.0.1  1.2 ms  *  1.4 ms`) as a hop. */
export function parseHop(line: string): Hop | null {
  const m = /^\s*\d+\s+(.*)$/.exec(line)
  if (!m) return null
  const words = m[1].split(/\s+/)
  const items: Hop['items'] = []
  let ip = ''
  let failed = 0
  for (let i = 0; i < words.length; i++) {
    const w = words[i]
    if (w === '*') failed++
    else if (words[i + 1] === 'ms' && /^[\d.]+$/.test(w))
      items.push({ ip, response_time: Number(w) * 1000 })
    else if (/^[0-9a-fA-F:.]+$/.test(w) && /[.:]/.test(w)) ip = w
  }
  const s = stats(items.map((x) => x.response_time))
  const total = items.length + failed
  return {
    total,
    failed,
    loss: total ? (failed / total) * 100 : 0,
    avg_cost: s.avg,
    min_cost: s.min,
    max_cost: s.max,
    std_cost: s.std,
    items,
  }
}

export function traceroute(
  ip: string,
  c: TracerouteConfig | undefined,
  tcpPort?: number,
): Promise<{ hops: Hop[]; error: string }> {
  const hops = clamp(c?.hops, 30, 60)
  const retry = clamp(c?.retry, 3, 3)
  const waitS = Math.min(10, Math.max(1, Math.ceil(durationMs(c?.timeout, 1000) / 1000)))
  const mode = tcpPort === undefined ? ['-I'] : ['-T', '-p', String(tcpPort)]
  const args = ['-n', ...mode, '-m', String(hops), '-q', String(retry), '-w', String(waitS), ip]
  const limit = hops * retry * waitS * 1000 + 5000
  return new Promise((resolve) => {
    execFile('traceroute', args, { timeout: limit, maxBuffer: 256 * 1024 }, (err, out, errOut) => {
      const parsed = out
        .split('\n')
        .slice(1)
        .map(parseHop)
        .filter((h): h is Hop => h !== null)
      const why = err ? `traceroute failed: ${(errOut || err.message).trim().split('\n')[0]}` : ''
      resolve({ hops: parsed, error: parsed.length ? '' : why })
    })
  })
}
