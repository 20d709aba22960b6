/**
 * The decode worker pool (Piscina). `minThreads = maxThreads` so threads are never torn down
 * and re-spawned between bursts; tasks wait in size-aware lanes (lanes.ts), bounded, and a
 * full queue answers 503 at once. Bodies are transferred to the worker (the caller's buffer is
 * detached afterwards). A worker that dies (out of memory, crash) fails only its own task,
 * with 503 `decodeWorkerDied`; Piscina starts a replacement. A worker whose heap grew past
 * `recycleHeapBytes` is replaced once idle (recycle.ts). A body's buffer that comes back with
 * its result (worker-result.ts) goes to `bodies` for the next body, and never into the result;
 * so does a spare payload buffer the worker did not use (spare-output.ts).
 */
import type { ResourceLimits } from 'node:worker_threads'
import { Piscina } from 'piscina'
import type { Component } from '../component.js'
import { runPooled } from '../shared/run-pooled.js'
import { workerFile } from '../shared/worker-file.js'
import { FerryError, fromPayload } from '../errors.js'
import type { BufferPool } from '../shared/buffer-pool.js'
import { isLargeTask, Lanes } from './lanes.js'
import { poolThreads } from './pool-threads.js'
import type { DecodeShares } from './decode-shares.js'
import { Recycler, type WorkerHeap } from './recycle.js'
import type { DecodeOk, DecodeResult, DecodeTask, Decoder } from './protocol.js'
import type { SpareBody } from './worker-result.js'
import { SpareOutputs } from './spare-output.js'
import { packTask } from './task-wire.js'
import type { DebugResult, DebugTask } from '../pipeline/debug/types.js'
import type { PipelineWorkerConfig } from '../pipeline/worker-host.js'
import type { RumWorkerOptions } from '../rum/stage.js'
import type { SharedGeo } from '../rum/geo/ipdb.js'
import type { SharedRefer } from '../pipeline/lib/fn-refer.js'

export interface PoolOptions {
  /** 0 = one per available core. */
  workers: number
  maxQueue: number
  /** Pipeline settings for the workers' sandboxes; absent when the pipeline is off. */
  pipeline?: PipelineWorkerConfig
  /** Source map resolution and CDN marking in the workers; absent when RUM is off. */
  rum?: RumWorkerOptions
  /**
   * The IP database for scripts calling `geoip()`: `wanted` says whether a task needs it, `get`
   * loads it once (on this thread) and gives the shared memory that travels with the task.
   */
  geo?: { wanted(task: DecodeTask | DebugTask): boolean; get(): Promise<SharedGeo | null> }
  /** The refer tables' current shared copy (travels with every task); absent: none. */
  refer?: () => SharedRefer | null
  /** Heap limits of each worker; past them the worker dies and its task gets 503. */
  resourceLimits?: ResourceLimits
  /** Told of every worker death (logged and counted by the caller). */
  onWorkerDied?: (err: Error) => void
  /** Past this heap after a task a worker is replaced; 0 or absent: never. */
  recycleHeapBytes?: number
  onWorkerRecycled?: (heapBytes: number) => void
  /** Clients' decode time: charged per task, and orders each lane (`decode-shares.ts`). */
  shares?: DecodeShares
  /**
   * Takes back the bodies' buffers the workers return, and lends the workers spare buffers for
   * their payloads (spare-output.ts); absent: fresh buffers, left to the GC.
   */
  bodies?: BufferPool
}

/** The workers' V8 heap limits from `[decode]` (bytes; 0 leaves V8's default). */
export function workerHeapLimits(c: {
  max_young_generation: number
  max_old_generation: number
}): ResourceLimits {
  const limits: ResourceLimits = {}
  const mb = (bytes: number) => Math.floor(bytes / 2 ** 20)
  if (c.max_young_generation) limits.maxYoungGenerationSizeMb = mb(c.max_young_generation)
  if (c.max_old_generation) limits.maxOldGenerationSizeMb = mb(c.max_old_generation)
  return limits
}

export class DecodePool implements Decoder, Component {
  readonly name = 'decode-pool'
  private pool: Piscina | null = null
  private readonly lanes: Lanes
  private readonly recycler: Recycler
  private readonly spares: SpareOutputs

  constructor(private readonly opts: PoolOptions) {
    this.lanes = new Lanes(this.threads, opts.maxQueue, opts.shares ?? null)
    this.recycler = new Recycler(opts.recycleHeapBytes ?? 0, opts.onWorkerRecycled)
    this.spares = new SpareOutputs(opts.bodies)
  }

  get threads(): number {
    return poolThreads(this.opts.workers)
  }

  async start(): Promise<void> {
    if (this.pool) return
    const n = this.threads
    this.pool = new Piscina({
      filename: workerFile('decode'),
      minThreads: n,
      maxThreads: n,
      maxQueue: this.opts.maxQueue,
      resourceLimits: this.opts.resourceLimits,
      loadBalancer: this.recycler.balancer,
      workerData: { pipeline: this.opts.pipeline, rum: this.opts.rum },
    })
    this.recycler.attach(this.pool)
  }

  queueSize(): number {
    return this.lanes.queued + (this.pool?.queueSize ?? 0)
  }

  utilization(): number {
    return this.pool?.utilization ?? 0
  }

  async decode(task: DecodeTask): Promise<DecodeOk> {
    if (!this.pool) throw new FerryError('shuttingDown', 'the decode pool is not running')
    await this.withShared(task)
    const large = isLargeTask(task.body.length, task.encoding !== '', task.maxBodyBytes)
    const result = await this.lanes.run(large, () => this.post(task), this.busy, task.client)
    if (!result.ok) throw fromPayload(result.error)
    return result
  }

  /**
   * Runs a pipeline debug request on a worker (the script may spin to its time limit): in the
   * large lane, so debug requests can never hold the worker kept for small writes.
   */
  async debug(task: DebugTask): Promise<DebugResult> {
    if (!this.pool) throw new FerryError('shuttingDown', 'the decode pool is not running')
    await this.withShared(task)
    return this.lanes.run(true, () => this.run<DebugResult>(task, []), this.busy)
  }

  private async withShared(
    task: (DecodeTask | DebugTask) & { geo?: SharedGeo; refer?: SharedRefer },
  ): Promise<void> {
    const refer = this.opts.refer?.()
    if (refer) task.refer = refer
    const geo = this.opts.geo
    if (!geo?.wanted(task)) return
    task.geo = (await geo.get()) ?? undefined
  }

  /** A write's task, posted with a spare buffer for its payload when one is idle. */
  private async post(task: DecodeTask): Promise<DecodeResult> {
    const { length } = task.body
    const spare = this.spares.take(length, task.encoding)
    const transfer = [task.body.buffer as ArrayBuffer]
    if (spare) transfer.push(spare)
    const r = await this.run<DecodeResult>(packTask(task, spare), transfer)
    if (r.ok) this.spares.learn(length, task.encoding, r.payload.length)
    return r
  }

  private async run<R extends object>(task: unknown, transfer: ArrayBuffer[]): Promise<R> {
    if (!this.pool) throw new FerryError('shuttingDown', 'the decode pool is not running')
    const r = await runPooled<R & WorkerHeap & SpareBody>(
      this.pool,
      task,
      transfer,
      this.busy,
      this.opts.onWorkerDied,
    )
    if (r.spareBody) this.opts.bodies?.give(r.spareBody)
    this.spares.giveBack(r.spareOut)
    delete r.spareBody
    delete r.spareOut
    return this.recycler.after(r)
  }

  private readonly busy = () =>
    new FerryError('agentBusy', `decode queue is full (${this.opts.maxQueue} tasks)`, {
      retryAfter: 1,
    })

  async shutdown(): Promise<void> {
    const pool = this.pool
    this.pool = null
    this.recycler.close()
    if (pool) await pool.destroy()
  }
}
