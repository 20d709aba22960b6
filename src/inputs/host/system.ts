/**
 * `system` (reference measurement `system`): load averages (also per core), logical CPUs,
 * logged-in users, uptime in seconds, process count, memory and CPU use in percent (CPU use
 * between two runs; since boot at the first).
 */
import fs from 'node:fs'
import { commonKeys } from '../conf/common.js'
import { defineInput, type CollectContext, type PolledInput } from '../input.js'
import { PointBuilder } from '../point-builder.js'
import { memFields } from './mem.js'
import { cpuTotal, parseCpuTimes, parseLoadavg, parseMeminfo, parseUptime, read } from './procfs.js'
import { usersNow } from './utmp.js'

const SCHEMA = { ...commonKeys(10_000) } as const

export function processCount(): number {
  return fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n)).length
}

class System implements PolledInput {
  readonly kind = 'polled'
  readonly category = 'metric'
  private last: [number, number] = [0, 0]
  constructor(readonly interval: number) {}

  private cpuUse(): number {
    const all = parseCpuTimes(read('stat')).find((t) => t.cpu === 'cpu-total')
    if (!all) return 0
    const [total, idle] = [cpuTotal(all), all.idle + all.iowait]
    const dt = total - this.last[0]
    const use = dt > 0 ? 100 * (1 - (idle - this.last[1]) / dt) : 0
    this.last = [total, idle]
    return use
  }

  async collect(ctx: CollectContext) {
    const stat = read('stat')
    const cpus = parseCpuTimes(stat).filter((t) => t.cpu !== 'cpu-total').length
    const [l1, l5, l15] = parseLoadavg(read('loadavg'))
    const mem = memFields(parseMeminfo(read('meminfo')))
    const b = new PointBuilder('system', ctx.now)
      .float('load1', l1)
      .float('load5', l5)
      .float('load15', l15)
      .float('load1_per_core', l1 / cpus)
      .float('load5_per_core', l5 / cpus)
      .float('load15_per_core', l15 / cpus)
      .int('n_cpus', cpus)
      .int('n_users', usersNow())
      .int('uptime', Math.floor(parseUptime(read('uptime'))))
      .int('process_count', processCount())
      .float('memory_usage', mem.total ? (100 * mem.used) / mem.total : 0)
      .float('cpu_total_usage', this.cpuUse())
    return [b.point]
  }
}

export const systemInput = defineInput({
  name: 'system',
  schema: SCHEMA,
  create: (c) => new System(c.interval),
})
