/**
 * In-memory BatchBuffer: bounded by bytes, refuses (never drops) when full. Stands in for the
 * durable buffer behind the same interface; `take` lets a consumer (or a test) drain it.
 */
import { randomBytes } from 'node:crypto'
import { FerryError } from '../errors.js'
import type { Batch, BatchBuffer, BufferStats } from './buffer.js'

export class MemoryBuffer implements BatchBuffer {
  readonly name = 'memory-buffer'
  readonly id = randomBytes(12).toString('hex')
  private queue: Batch[] = []
  private bytes = 0
  private points = 0
  private closed = false

  constructor(private readonly maxBytes: number) {}

  async start(): Promise<void> {}

  async push(batch: Batch): Promise<void> {
    if (this.closed) throw new FerryError('shuttingDown', 'the agent is shutting down')
    if (this.bytes + batch.payload.length > this.maxBytes) {
      throw new FerryError('bufferFull', `buffer holds ${this.bytes} of ${this.maxBytes} bytes`, {
        retryAfter: 1,
      })
    }
    this.queue.push(batch)
    this.bytes += batch.payload.length
    this.points += batch.points
  }

  /** Removes and returns up to `max` batches, oldest first. */
  take(max = Infinity): Batch[] {
    const out = this.queue.splice(0, max)
    for (const b of out) {
      this.bytes -= b.payload.length
      this.points -= b.points
    }
    return out
  }

  stats(): BufferStats {
    return { batches: this.queue.length, bytes: this.bytes, points: this.points }
  }

  async shutdown(): Promise<void> {
    this.closed = true
  }
}
