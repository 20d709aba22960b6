/**
 * Recycling of decode workers whose memory grew. A V8 heap that grew for one big task (a
 * pipeline debug script building large strings, a body near the limits) keeps its pages, and a
 * sandbox's WebAssembly memory never shrinks: only ending the thread gives them back. Each task
 * reports its worker's heap (V8 heap plus external memory, which holds the WebAssembly memory)
 * with its result; past `recycleBytes` the worker is retired: the balancer gives it no further
 * task, and it is terminated once idle. Piscina then starts a replacement (`minThreads`).
 *
 * Invariants:
 * - A retired worker is never handed a task, so ending it fails no one: the mark is set before
 *   the task's caller sees its result, hence before the lanes hand out the freed slot.
 * - A worker is terminated only while it runs nothing (`currentUsage === 0`); one still busy
 *   is looked at again after the next task finishes, and every `REAP_RETRY_MS` while any
 *   retiring worker is left, so an agent that goes idle still ends it (its last task may have
 *   been handed the worker before the mark, and no task need finish after it).
 * - A worker is terminated once: each `terminate()` call adds an exit listener to the thread,
 *   and a thread slow to exit would otherwise gather one per task finished meanwhile.
 */
import { getHeapStatistics } from 'node:v8'
import { threadId } from 'node:worker_threads'
import type { Piscina } from 'piscina'

type Balancer = NonNullable<NonNullable<ConstructorParameters<typeof Piscina>[0]>['loadBalancer']>
type PoolWorker = Parameters<Balancer>[1][number]

/** How soon a retiring worker that was busy is looked at again. */
export const REAP_RETRY_MS = 250

/** What a worker adds to each result (removed before the result goes on). */
export interface WorkerHeap {
  workerHeap?: { thread: number; bytes: number }
}

/** In the worker: the result with this thread's memory attached. */
export function withWorkerHeap<R extends object>(result: R): R & WorkerHeap {
  const h = getHeapStatistics()
  return Object.assign(result, {
    workerHeap: { thread: threadId, bytes: h.total_heap_size + h.external_memory },
  })
}

export class Recycler {
  private readonly retiring = new Set<number>()
  private readonly terminated = new Set<number>()
  private readonly workers = new Map<number, PoolWorker>()
  private pool: Piscina | null = null
  private retry: NodeJS.Timeout | null = null

  /** `recycleBytes` 0: never. `onRecycle` is told of each retirement (logged and counted). */
  constructor(
    private readonly recycleBytes: number,
    private readonly onRecycle: (bytes: number) => void = () => undefined,
  ) {}

  /** The least busy idle worker that is not retiring, or null (the pool queues the task). */
  readonly balancer: Balancer = (_task, workers) =>
    workers.find((w) => w.currentUsage === 0 && !this.retiring.has(w.id)) ?? null

  attach(pool: Piscina): void {
    this.pool = pool
    pool.on('workerCreate', (w: PoolWorker) => this.workers.set(w.id, w))
    pool.on('workerDestroy', (w: PoolWorker) => {
      this.workers.delete(w.id)
      this.retiring.delete(w.id)
      this.terminated.delete(w.id)
    })
  }

  /** Reads and removes the worker's report; retires it past the limit. */
  after<R extends object>(result: R & WorkerHeap): R {
    const heap = result.workerHeap
    delete result.workerHeap
    if (heap && this.recycleBytes > 0 && heap.bytes > this.recycleBytes) {
      if (!this.retiring.has(heap.thread)) this.onRecycle(heap.bytes)
      this.retiring.add(heap.thread)
    }
    this.reap()
    return result
  }

  /** Terminates every retiring worker that runs nothing; looks again soon at those busy. */
  reap(): void {
    let left = false
    for (const id of this.retiring) {
      if (this.terminated.has(id)) continue
      const thread = this.pool?.threads.find((t) => t.threadId === id)
      if (!thread || this.workers.get(id)?.currentUsage !== 0) {
        left ||= thread !== undefined
        continue
      }
      this.terminated.add(id)
      void thread.terminate()
    }
    if (left && !this.retry) {
      this.retry = setTimeout(() => {
        this.retry = null
        this.reap()
      }, REAP_RETRY_MS).unref()
    }
  }

  /** Stops looking (the pool is being destroyed). Idempotent. */
  close(): void {
    if (this.retry) clearTimeout(this.retry)
    this.retry = null
    this.pool = null
  }
}
