/**
 * Runs polled inputs on their intervals. The first run of each waits a random part of its
 * interval (at most `maxJitter`) so that inputs started together do not collect together; later
 * runs keep to the grid of that first run, and a run never overlaps the previous one of the
 * same instance (a slow run skips the ticks it missed).
 */
export interface Job {
  interval: number
  run(): Promise<void>
}

export class Scheduler {
  private readonly timers = new Set<NodeJS.Timeout>()
  private readonly running = new Set<Promise<void>>()
  private stopped = false

  constructor(
    private readonly maxJitter = 5_000,
    private readonly random: () => number = Math.random,
  ) {}

  add(job: Job): void {
    const first = Math.floor(this.random() * Math.min(job.interval, this.maxJitter))
    this.at(first, job, Date.now() + first)
  }

  private at(delay: number, job: Job, due: number): void {
    if (this.stopped) return
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      const p = job.run().finally(() => {
        this.running.delete(p)
        let next = due + job.interval
        const now = Date.now()
        if (next <= now) next += Math.ceil((now - next + 1) / job.interval) * job.interval
        this.at(next - now, job, next)
      })
      this.running.add(p)
    }, delay)
    timer.unref()
    this.timers.add(timer)
  }

  /** Idempotent: stops scheduling and waits for runs in progress. */
  async stop(): Promise<void> {
    this.stopped = true
    for (const t of this.timers) clearTimeout(t)
    this.timers.clear()
    await Promise.allSettled([...this.running])
  }
}
