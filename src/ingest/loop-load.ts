/**
 * Is the HTTP thread saturated? Its event loop utilisation over the last window of at least
 * `windowMs`, judged when asked (no timer, so nothing to start or stop): a decode task does not
 * run on a saturated thread when workers can take it (`inline-first.ts`).
 *
 * Invariant: until a first window has passed the answer is "not saturated".
 */
import { performance } from 'node:perf_hooks'

export interface LoadProbe {
  saturated(): boolean
}

export class LoopLoad implements LoadProbe {
  private last = performance.eventLoopUtilization()
  private at = performance.now()
  private busy = false

  constructor(
    private readonly threshold = 0.5,
    private readonly windowMs = 100,
  ) {}

  saturated(): boolean {
    const now = performance.now()
    if (now - this.at >= this.windowMs) {
      const current = performance.eventLoopUtilization()
      this.busy = performance.eventLoopUtilization(current, this.last).utilization > this.threshold
      this.last = current
      this.at = now
    }
    return this.busy
  }
}
