/**
 * Decoding of upload bodies off the service thread: a Piscina pool of `decode_workers`
 * threads (0 decodes inline). Bodies are transferred to the workers; the column batches come
 * back with their time arrays transferred.
 */
import { Piscina } from 'piscina'
import type { Component } from '../../component.js'
import { workerFile } from '../../shared/worker-file.js'
import { HELPER_THREAD_LIMITS } from '../../shared/heap-flags.js'
import { runPooled } from '../../shared/run-pooled.js'
import { FerryError, fromPayload } from '../../errors.js'
import { decodeUpload, type UploadResult, type UploadTask } from './decode.js'
import { fingerprintReady } from './fingerprint.js'

export class UploadDecoder implements Component {
  readonly name = 'upload-decoder'
  private pool: Piscina | null = null

  constructor(
    private readonly workers: number,
    private readonly maxQueue: number,
  ) {}

  async start(): Promise<void> {
    await fingerprintReady // for decoding inline
    if (this.workers > 0 && !this.pool)
      this.pool = new Piscina({
        filename: workerFile('upload-decode'),
        minThreads: this.workers,
        maxThreads: this.workers,
        maxQueue: this.maxQueue,
        resourceLimits: HELPER_THREAD_LIMITS,
      })
  }

  async decode(task: UploadTask): Promise<Extract<UploadResult, { ok: true }>> {
    const r = this.pool
      ? await runPooled<UploadResult>(
          this.pool,
          task,
          [task.body.buffer as ArrayBuffer],
          () =>
            new FerryError('workspaceBusy', 'too many bodies waiting to be decoded', {
              retryAfter: 1,
            }),
        )
      : decodeUpload(task)
    if (!r.ok) throw fromPayload(r.error)
    return r
  }

  async shutdown(): Promise<void> {
    const pool = this.pool
    this.pool = null
    if (pool) await pool.destroy()
  }
}
