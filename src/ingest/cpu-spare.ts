/**
 * Spare CPU: how many cores' worth of time this process could still have used over the last
 * window. Handing a small write to a decode worker costs more CPU in all than decoding it on
 * the HTTP thread (post, wake-up, result message, on both threads); it only pays when the
 * worker runs on a core that would otherwise idle. On a host whose cores are all busy (a small
 * VM, a node full of pods, a load generator beside the agent) the hand-off takes CPU from the
 * very work it should speed up: measured on 2 cores with 100-point bodies, decoding them on
 * the HTTP thread whenever no core was spare accepted 17% more points at 27% less CPU per point.
 *
 * The spare time is the smaller of the machine's idle time (every core, from `os.cpus()`) and
 * what the process's CPU budget leaves beside its own use (the cgroup's `cpu.max` quota where
 * one is set, else the cores it may run on).
 *
 * Invariant: until a first window has passed the answer is the whole budget (no evidence of a
 * busy machine yet).
 */
import fs from 'node:fs'
import os from 'node:os'

export interface SpareProbe {
  /** Cores' worth of CPU time left unused over the last window. */
  cores(): number
}

/** What the probe reads: CPU time in ms, the machine's idle and the process's own. */
export interface CpuReading {
  idleMs: number
  processMs: number
}

export function readCpu(): CpuReading {
  const u = process.cpuUsage()
  return { idleMs: machineIdleMs(), processMs: (u.user + u.system) / 1000 }
}

/** Linux's clock tick for /proc/stat (USER_HZ), 100 on every architecture it ships for. */
const MS_PER_TICK = 10

/**
 * Every core's idle time in ms: the `cpu` line of /proc/stat (its fourth column, in ticks), from
 * the file's first bytes (35 us a call on a 2-core VM, against 100 us for the whole file and 400
 * for `os.cpus()`, which parses /proc/cpuinfo too); `os.cpus()` only where the file is not there.
 */
export function machineIdleMs(read: () => string = statHead): number {
  const stat = read()
  const m = /^cpu\s+\d+\s+\d+\s+\d+\s+(\d+)/.exec(stat)
  if (m) return Number(m[1]) * MS_PER_TICK
  let idle = 0
  for (const c of os.cpus()) idle += c.times.idle
  return idle
}

/**
 * The cgroup's CPU quota in cores, or null where none is set: cgroup v2 `cpu.max`
 * ("max 100000" or "200000 100000"), else v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us`.
 */
export function cgroupCores(read: (file: string) => string = readText): number | null {
  const v2 = read('/sys/fs/cgroup/cpu.max').trim().split(/\s+/)
  if (v2.length === 2) return v2[0] === 'max' ? null : positive(Number(v2[0]) / Number(v2[1]))
  const quota = Number(read('/sys/fs/cgroup/cpu/cpu.cfs_quota_us').trim())
  const period = Number(read('/sys/fs/cgroup/cpu/cpu.cfs_period_us').trim())
  return quota > 0 && period > 0 ? positive(quota / period) : null
}

function positive(v: number): number | null {
  return Number.isFinite(v) && v > 0 ? v : null
}

const head = Buffer.alloc(256)

/** The first bytes of /proc/stat (its `cpu` line), or '' where it cannot be read. */
function statHead(): string {
  try {
    const fd = fs.openSync('/proc/stat', 'r')
    try {
      return head.toString('latin1', 0, fs.readSync(fd, head, 0, head.length, 0))
    } finally {
      fs.closeSync(fd)
    }
  } catch {
    return ''
  }
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch {
    return ''
  }
}

/** The cores the process may use: its affinity, capped by a cgroup quota. */
export function cpuBudget(): number {
  const quota = cgroupCores()
  const cores = os.availableParallelism()
  return quota === null ? cores : Math.min(cores, quota)
}

export class CpuSpare implements SpareProbe {
  private last: CpuReading
  private at = performance.now()
  private spare: number

  constructor(
    private readonly windowMs = 100,
    private readonly budget = cpuBudget(),
    private readonly read: () => CpuReading = readCpu,
  ) {
    this.last = read()
    this.spare = budget
  }

  cores(): number {
    const now = performance.now()
    const elapsed = now - this.at
    if (elapsed >= this.windowMs) {
      const r = this.read()
      const idle = (r.idleMs - this.last.idleMs) / elapsed
      const own = (r.processMs - this.last.processMs) / elapsed
      this.spare = Math.max(0, Math.min(idle, this.budget - own))
      this.last = r
      this.at = now
    }
    return this.spare
  }
}
