/**
 * The memory of the windows the buffer reads back: taken from the buffer pool and lent to the
 * reader, which gives it back once done with the window (`release`). A buffer goes back at most
 * once, and only one this lender lent: a window read into fresh memory is left to the GC.
 */
import type { BufferPool } from '../../shared/buffer-pool.js'
import type { StoredBatch } from '../buffer.js'

export class WindowLender {
  private readonly lent = new WeakSet<ArrayBuffer>()

  constructor(private readonly pool: BufferPool | undefined) {}

  /** Where a window's memory comes from: the pool's, marked as lent; absent: fresh. */
  get take(): ((n: number) => Uint8Array) | undefined {
    const pool = this.pool
    if (!pool) return undefined
    return (n) => {
      const taken = pool.take(n)
      this.lent.add(taken.buffer as ArrayBuffer)
      return taken
    }
  }

  /** The reader is done with a window: its memory serves the next one. */
  release(batches: StoredBatch[]): void {
    const buffer = batches[0]?.payload.buffer as ArrayBuffer | undefined
    if (buffer && this.lent.delete(buffer)) this.pool?.give(buffer)
  }
}
