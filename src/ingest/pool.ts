/**
 * The decode worker pool (Piscina). `minThreads = maxThreads` so threads are never torn down
 * and re-spawned between bursts; the queue is bounded and a full queue answers 503 at once.
 * Bodies are transferred to the worker (the caller's buffer is detached afterwards).
 */
import os from 'node:os'
import { Piscina } from 'piscina'
import type { Component } from '../component.js'
import { runPooled } from '../shared/run-pooled.js'
import { workerFile } from '../shared/worker-file.js'
import { FerryError, fromPayload } from '../errors.js'
import type { DecodeOk, DecodeResult, DecodeTask, Decoder } from './protocol.js'
import type { DebugResult, DebugTask } from '../pipeline/debug/types.js'
import type { PipelineWorkerConfig } from '../pipeline/worker-host.js'

export interface PoolOptions {
  /** 0 = one per available core. */
  workers: number
  maxQueue: number
  /** Pipeline settings for the workers' sandboxes; absent when the pipeline is off. */
  pipeline?: PipelineWorkerConfig
}

export class DecodePool implements Decoder, Component {
  readonly name = 'decode-pool'
  private pool: Piscina | null = null

  constructor(private readonly opts: PoolOptions) {}

  get threads(): number {
    return this.opts.workers || os.availableParallelism()
  }

  async start(): Promise<void> {
    if (this.pool) return
    const n = this.threads
    this.pool = new Piscina({
      filename: workerFile('decode'),
      minThreads: n,
      maxThreads: n,
      maxQueue: this.opts.maxQueue,
      workerData: { pipeline: this.opts.pipeline },
    })
  }

  queueSize(): number {
    return this.pool?.queueSize ?? 0
  }

  utilization(): number {
    return this.pool?.utilization ?? 0
  }

  async decode(task: DecodeTask): Promise<DecodeOk> {
    if (!this.pool) throw new FerryError('shuttingDown', 'the decode pool is not running')
    const result = await runPooled<DecodeResult>(
      this.pool,
      task,
      task.body.buffer as ArrayBuffer,
      this.busy,
    )
    if (!result.ok) throw fromPayload(result.error)
    return result
  }

  /** Runs a pipeline debug request on a worker (the script may spin to its time limit). */
  async debug(task: DebugTask): Promise<DebugResult> {
    if (!this.pool) throw new FerryError('shuttingDown', 'the decode pool is not running')
    return runPooled<DebugResult>(this.pool, task, null, this.busy)
  }

  private readonly busy = () =>
    new FerryError('agentBusy', `decode queue is full (${this.opts.maxQueue} tasks)`, {
      retryAfter: 1,
    })

  async shutdown(): Promise<void> {
    const pool = this.pool
    this.pool = null
    if (pool) await pool.destroy()
  }
}
