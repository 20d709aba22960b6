/**
 * Size-aware queueing in front of the decode workers: two FIFO lanes, small and large. Tasks
 * are handed to the pool only when a worker is free, so the order is decided here, not in the
 * pool's own queue:
 * - a free worker takes the oldest small task first, so a one-point write never waits behind
 *   a queue of 64 MiB bodies;
 * - large tasks may hold at most `slots - 1` workers (one, with a single worker), so one
 *   worker always stays free for small writes while big bodies are decoded.
 * Answers do not depend on the lane: only when a task starts.
 */
import { FerryError } from '../errors.js'

interface Job {
  large: boolean
  start: () => void
}

export class Lanes {
  private readonly small: Job[] = []
  private readonly large: Job[] = []
  private running = 0
  private runningLarge = 0

  constructor(
    private readonly slots: number,
    private readonly maxQueue: number,
  ) {}

  /** Tasks waiting for a worker, both lanes. */
  get queued(): number {
    return this.small.length + this.large.length
  }

  private get largeSlots(): number {
    return Math.max(1, this.slots - 1)
  }

  /** Runs `task` when its lane's turn comes; `busy()` at once when `maxQueue` tasks wait. */
  run<R>(large: boolean, task: () => Promise<R>, busy: () => FerryError): Promise<R> {
    if (this.queued >= this.maxQueue) return Promise.reject(busy())
    return new Promise<R>((resolve, reject) => {
      const start = () => {
        this.running++
        if (large) this.runningLarge++
        Promise.resolve()
          .then(task)
          .then(resolve, reject)
          .finally(() => {
            this.running--
            if (large) this.runningLarge--
            this.pump()
          })
      }
      ;(large ? this.large : this.small).push({ large, start })
      this.pump()
    })
  }

  private pump(): void {
    while (this.running < this.slots) {
      const next =
        this.small.shift() ?? (this.runningLarge < this.largeSlots ? this.large.shift() : undefined)
      if (!next) return
      next.start()
    }
  }
}

/**
 * 1 MiB: at most this much text to decode (a few thousand points, a few milliseconds) is a
 * small task. Compressed bodies count at deflate's largest ratio (1032:1), capped by the body
 * limit: what a body might expand to, not what it is, decides its lane.
 */
export const SMALL_TASK_BYTES = 1024 * 1024
const MAX_DEFLATE_RATIO = 1032

export function isLargeTask(bodyBytes: number, encoded: boolean, maxBodyBytes: number): boolean {
  const bound = Math.min(maxBodyBytes, encoded ? bodyBytes * MAX_DEFLATE_RATIO : bodyBytes)
  return bound > SMALL_TASK_BYTES
}
