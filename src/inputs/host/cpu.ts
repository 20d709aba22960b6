/**
 * `cpu` (reference measurement `cpu`, tag `cpu` = `cpu-total` or `cpuN`): usage_* percentages
 * of the jiffies /proc/stat counted between two readings. The first run takes a baseline a
 * quarter second before its reading, so a fresh agent reports at its first collection.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { commonKeys } from '../conf/common.js'
import { defineInput, type CollectContext, type PolledInput } from '../input.js'
import { PointBuilder } from '../point-builder.js'
import { cpuTotal, parseCpuTimes, parseLoadavg, read, type CpuTimes } from './procfs.js'

const SCHEMA = {
  ...commonKeys(10_000),
  percpu: { type: 'bool', default: false },
  enable_temperature: { type: 'bool', default: true },
  enable_load5s: { type: 'bool', default: true },
  disable_temperature_collect: { type: 'bool', default: false },
} as const

const pct = (now: number, before: number, total: number) => {
  const v = (100 * (now - before)) / total
  return v < 0 || v > 100 ? 0 : v
}

/** The reference's usage figures for one CPU line between two readings. */
export function usage(now: CpuTimes, before: CpuTimes): Record<string, number> | null {
  const total = cpuTotal(now) - cpuTotal(before)
  if (total <= 0) return null
  const u: Record<string, number> = {
    usage_user: pct(now.user - now.guest, before.user - before.guest, total),
    usage_system: pct(now.system, before.system, total),
    usage_idle: pct(now.idle, before.idle, total),
    usage_nice: pct(now.nice - now.guestNice, before.nice - before.guestNice, total),
    usage_iowait: pct(now.iowait, before.iowait, total),
    usage_irq: pct(now.irq, before.irq, total),
    usage_softirq: pct(now.softirq, before.softirq, total),
    usage_steal: pct(now.steal, before.steal, total),
    usage_guest: pct(now.guest, before.guest, total),
    usage_guest_nice: pct(now.guestNice, before.guestNice, total),
  }
  let sum = 0
  for (const [k, v] of Object.entries(u)) if (k !== 'usage_idle') sum += v
  u.usage_total = sum < 0 || sum > 100 ? 0 : sum
  return u
}

/**
 * load5s: the 1-minute load average's kernel recurrence solved for the 5-second sample, as the
 * reference computes it from successive load1 readings (fixed point, 2048 = 1.0).
 */
export function load5s(load1: number, lastLoad1: number): number {
  if (lastLoad1 === 0 || load1 === 0) return Math.trunc(load1)
  return Math.round((2048 * (2048 * load1 - 10) - 1024 - 1884 * 2048 * lastLoad1) / 164 / 2048)
}

class Cpu implements PolledInput {
  readonly kind = 'polled'
  readonly category = 'metric'
  private last = new Map<string, CpuTimes>()
  private lastLoad1 = 0

  constructor(
    readonly interval: number,
    private readonly percpu: boolean,
    private readonly withLoad5s: boolean,
  ) {}

  private sample(): CpuTimes[] {
    const all = parseCpuTimes(read('stat'))
    return this.percpu ? all : all.filter((t) => t.cpu === 'cpu-total')
  }

  async collect(ctx: CollectContext) {
    if (this.last.size === 0) {
      for (const t of this.sample()) this.last.set(t.cpu, t)
      await sleep(250, undefined, { signal: ctx.signal })
    }
    const now = this.sample()
    const load1 = parseLoadavg(read('loadavg'))[0]
    const points = []
    for (const t of now) {
      const before = this.last.get(t.cpu)
      this.last.set(t.cpu, t)
      const u = before && usage(t, before)
      if (!u) continue
      const b = new PointBuilder('cpu', ctx.now).tag('cpu', t.cpu)
      for (const [k, v] of Object.entries(u)) b.float(k, v)
      if (this.withLoad5s) b.int('load5s', load5s(load1, this.lastLoad1))
      points.push(b.point)
    }
    this.lastLoad1 = load1
    return points
  }
}

export const cpuInput = defineInput({
  name: 'cpu',
  schema: SCHEMA,
  create: (c) => new Cpu(c.interval, c.percpu, c.enable_load5s),
})
