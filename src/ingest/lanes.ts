/**
 * Size-aware queueing in front of the decode workers: two FIFO lanes, small and large. Tasks
 * are handed to the pool only when a worker is free, so the order is decided here, not in the
 * pool's own queue:
 * - a free worker takes the oldest small task first, so a one-point write never waits behind
 *   a queue of 64 MiB bodies;
 * - large tasks may hold at most `slots - 1` workers (one, with a single worker), so one
 *   worker always stays free for small writes while big bodies are decoded.
 * - within a lane, with `shares`, the task of the client with the least recent decode time
 *   goes first (the oldest among equals), and each task's time on a worker is charged to its
 *   client: a client under its share never waits behind a heavier client's queue.
 * Answers do not depend on the lane or the order: only when a task starts.
 */
import type { FerryError } from '../errors.js'
import type { DecodeShares } from './decode-shares.js'

interface Job {
  large: boolean
  client: string
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
    private readonly shares: DecodeShares | null = null,
  ) {}

  /** Tasks waiting for a worker, both lanes. */
  get queued(): number {
    return this.small.length + this.large.length
  }

  private get largeSlots(): number {
    return Math.max(1, this.slots - 1)
  }

  /**
   * Runs `task` when its turn comes (its lane's, then its client's); `busy()` at once when
   * `maxQueue` tasks wait. `client` '' is the agent's own work.
   */
  run<R>(large: boolean, task: () => Promise<R>, busy: () => FerryError, client = ''): Promise<R> {
    if (this.queued >= this.maxQueue) return Promise.reject(busy())
    return new Promise<R>((resolve, reject) => {
      const start = () => {
        this.running++
        if (large) this.runningLarge++
        const began = this.shares?.now() ?? 0
        Promise.resolve()
          .then(task)
          .then(resolve, reject)
          .finally(() => {
            this.running--
            if (large) this.runningLarge--
            this.shares?.charge(client, this.shares.now() - began)
            this.pump()
          })
      }
      ;(large ? this.large : this.small).push({ large, client, start })
      this.pump()
    })
  }

  private pump(): void {
    while (this.running < this.slots) {
      const lane = this.small.length
        ? this.small
        : this.runningLarge < this.largeSlots
          ? this.large
          : null
      if (!lane?.length) return
      lane.splice(this.next(lane), 1)[0].start()
    }
  }

  /** The index of the job to start: the least recent decode time's client, oldest first. */
  private next(lane: Job[]): number {
    if (!this.shares || lane.length === 1) return 0
    const usage = new Map<string, number>()
    let best = 0
    let least = Infinity
    for (let i = 0; i < lane.length; i++) {
      const c = lane[i].client
      let u = usage.get(c)
      if (u === undefined) usage.set(c, (u = this.shares.usage(c)))
      if (u < least) [best, least] = [i, u]
    }
    return best
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
