/** What the `HOST` object describes: OS, CPU model, memory, interfaces and their addresses. */
import fs from 'node:fs'
import os from 'node:os'
import { parseMeminfo, read } from './procfs.js'

export function osRelease(): Record<string, string> {
  const out: Record<string, string> = {}
  try {
    for (const line of fs.readFileSync('/etc/os-release', 'utf8').split('\n')) {
      const m = /^([A-Z_]+)=("?)(.*)\2$/.exec(line)
      if (m) out[m[1]] = m[3]
    }
  } catch {
    // No os-release (a scratch container): the platform stays unknown.
  }
  return out
}

export interface CpuModel {
  vendor_id: string
  module_name: string
  cores: number
  mhz: number
  cache_size: number
}

/** One entry per physical package (`physical id`), as the reference lists CPUs. */
export function cpuModels(cpuinfo: string): CpuModel[] {
  const byPackage = new Map<string, CpuModel>()
  for (const block of cpuinfo.split('\n\n')) {
    const kv = new Map(
      block.split('\n').map((l) => [l.split(':')[0].trim(), (l.split(':')[1] ?? '').trim()]),
    )
    if (!kv.has('processor')) continue
    const pkg = kv.get('physical id') ?? '0'
    const known = byPackage.get(pkg)
    if (known) known.cores++
    else
      byPackage.set(pkg, {
        vendor_id: kv.get('vendor_id') ?? '',
        module_name: kv.get('model name') ?? '',
        cores: 1,
        mhz: Number(kv.get('cpu MHz') ?? 0),
        cache_size: parseInt(kv.get('cache size') ?? '0', 10) || 0,
      })
  }
  return [...byPackage.values()]
}

export function interfaces() {
  return Object.entries(os.networkInterfaces()).map(([name, addrs = []]) => {
    const v4 = addrs.filter((a) => a.family === 'IPv4').map((a) => a.cidr ?? a.address)
    const v6 = addrs.filter((a) => a.family === 'IPv6').map((a) => a.cidr ?? a.address)
    return {
      name,
      mac: addrs[0]?.mac ?? '',
      ip4: v4[0] ?? '',
      ip6: v6[0] ?? '',
      ip4_all: v4,
      ip6_all: v6,
    }
  })
}

export function memTotals(): { memory_total: number; swap_total: number } {
  const mi = parseMeminfo(read('meminfo'))
  return { memory_total: mi.get('MemTotal') ?? 0, swap_total: mi.get('SwapTotal') ?? 0 }
}

/** The first non-internal IPv4 address: the reference's `unicast_ip`. */
export function unicastIp(): string {
  for (const addrs of Object.values(os.networkInterfaces()))
    for (const a of addrs ?? []) if (a.family === 'IPv4' && !a.internal) return a.address
  return ''
}
