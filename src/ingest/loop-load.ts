/**
 * Should a small write leave the HTTP thread for a worker? Only when the thread is saturated,
 * its event loop utilisation over the last window of at least `windowMs` above `threshold`,
 * and a worker would run on a core that would otherwise idle (`cpu-spare.ts`: at least
 * `MIN_SPARE_CORES` spare). Judged when asked (no timer, so nothing to start or stop): a decode
 * task does not run on a saturated thread when workers can take it (`inline-first.ts`).
 *
 * Invariant: until a first window has passed the answer is "not saturated".
 */
import { performance } from 'node:perf_hooks'
import { CpuSpare, type SpareProbe } from './cpu-spare.js'

export interface LoadProbe {
  saturated(): boolean
}

/**
 * A whole core. A busy 2-core host shows 0.1 to 0.8 cores idle from window to window, gaps
 * between the steps of its load rather than room for a worker: with half a core as the bar,
 * 100-point bodies went to the pool and the agent accepted 15% fewer points at 35% more CPU
 * per point than with this one (three alternating runs each).
 */
export const MIN_SPARE_CORES = 1

export class LoopLoad implements LoadProbe {
  private last = performance.eventLoopUtilization()
  private at = performance.now()
  private busy = false

  constructor(
    private readonly threshold = 0.5,
    private readonly windowMs = 100,
    private readonly spare: SpareProbe = new CpuSpare(windowMs),
  ) {}

  saturated(): boolean {
    const now = performance.now()
    if (now - this.at >= this.windowMs) {
      const current = performance.eventLoopUtilization()
      this.busy = performance.eventLoopUtilization(current, this.last).utilization > this.threshold
      this.last = current
      this.at = now
    }
    return this.busy && this.spare.cores() >= MIN_SPARE_CORES
  }
}
