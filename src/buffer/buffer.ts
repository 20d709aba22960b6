/**
 * The hand-off between the write path and the sinks. A batch is the workers' output for one
 * request: PBPoints bytes plus what the uploader needs to send them.
 *
 * Contract: when `push` resolves, the batch is as safe as the implementation promises (the
 * durable implementation: committed to disk); when it rejects, nothing of the batch was kept.
 */
import type { Component } from '../component.js'
import type { Category } from '../shared/category.js'

export interface Batch {
  category: Category
  /** Concatenated PBPoints entries. */
  payload: Uint8Array
  points: number
  input: string
  storageIndex?: string
  receivedAt: number
}

export interface BufferStats {
  batches: number
  bytes: number
  points: number
}

export interface BatchBuffer extends Component {
  /** The buffer's identity: random, kept for its lifetime; package ids are built from it. */
  readonly id: string
  push(batch: Batch): Promise<void>
  stats(): BufferStats
}
