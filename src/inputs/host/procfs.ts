/**
 * Parsers of the Linux /proc files the host inputs read. Each takes the file's text, so tests
 * can feed them fixed text as well as the live files; `read` reads one live file.
 */
import fs from 'node:fs'

export const PROC = '/proc'

export function read(rel: string): string {
  return fs.readFileSync(`${PROC}/${rel}`, 'utf8')
}

/** Jiffies per CPU line of /proc/stat, in the kernel's column order. */
export interface CpuTimes {
  cpu: string
  user: number
  nice: number
  system: number
  idle: number
  iowait: number
  irq: number
  softirq: number
  steal: number
  guest: number
  guestNice: number
}

const CPU_COLS = [
  'user',
  'nice',
  'system',
  'idle',
  'iowait',
  'irq',
  'softirq',
  'steal',
  'guest',
  'guestNice',
] as const

export function parseCpuTimes(stat: string): CpuTimes[] {
  const out: CpuTimes[] = []
  for (const line of stat.split('\n')) {
    if (!line.startsWith('cpu')) continue
    const parts = line.trim().split(/\s+/)
    const t = { cpu: parts[0] === 'cpu' ? 'cpu-total' : parts[0] } as CpuTimes
    CPU_COLS.forEach((c, i) => (t[c] = Number(parts[i + 1] ?? 0)))
    out.push(t)
  }
  return out
}

/** Sum of every column (guest time is also counted in user, as the reference counts it). */
export function cpuTotal(t: CpuTimes): number {
  return CPU_COLS.reduce((s, c) => s + t[c], 0)
}

/** A `key value` file (/proc/stat's btime, /proc/vmstat). */
export function parseKeyValues(text: string): Map<string, number> {
  const out = new Map<string, number>()
  for (const line of text.split('\n')) {
    const [k, v] = line.trim().split(/\s+/)
    if (k && v !== undefined) out.set(k, Number(v))
  }
  return out
}

/** /proc/meminfo in bytes (`kB` lines times 1024; counts such as HugePages_* as they are). */
export function parseMeminfo(text: string): Map<string, number> {
  const out = new Map<string, number>()
  for (const line of text.split('\n')) {
    const m = /^([^:]+):\s+(\d+)(\s+kB)?/.exec(line)
    if (m) out.set(m[1], Number(m[2]) * (m[3] ? 1024 : 1))
  }
  return out
}

export function parseLoadavg(text: string): [number, number, number] {
  const [a, b, c] = text.trim().split(/\s+/).map(Number)
  return [a, b, c]
}

/** Seconds since boot (first number of /proc/uptime). */
export function parseUptime(text: string): number {
  return Number(text.trim().split(/\s+/)[0])
}
