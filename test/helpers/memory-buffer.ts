/**
 * An in-memory BatchBuffer for tests of the HTTP app and of the uploader: bounded by bytes,
 * refuses (never drops) when full, nothing survives the process. It passes the same contract
 * suite as the disk buffer; `take` lets a test drain what was pushed.
 */
import { randomBytes } from 'node:crypto'
import type {
  Batch,
  BatchBuffer,
  BufferStats,
  DeadLetter,
  Plan,
  StoredBatch,
} from '../../src/buffer/buffer.js'
import { FerryError } from '../../src/errors.js'
import type { Category } from '../../src/shared/category.js'

export class MemoryBuffer implements BatchBuffer {
  readonly name = 'memory-buffer'
  readonly id = randomBytes(12).toString('hex')
  private records: StoredBatch[] = []
  private seq = 1
  private bytes = 0
  private closed = false
  private readonly cursors = new Map<string, number>()
  private readonly plans = new Map<string, Plan>()
  private readonly dead: DeadLetter[] = []
  private readonly waiters = new Set<() => void>()

  constructor(private readonly maxBytes: number) {}

  async start(): Promise<void> {}

  async push(batch: Batch): Promise<void> {
    if (this.closed) throw new FerryError('shuttingDown', 'the agent is shutting down')
    if (this.bytes + batch.payload.length > this.maxBytes) {
      throw new FerryError('bufferFull', `buffer holds ${this.bytes} of ${this.maxBytes} bytes`, {
        retryAfter: 1,
      })
    }
    // A copy: the caller may reuse the payload's memory once this settles (buffer.ts).
    const { payloadRoom: _room, ...rest } = batch
    this.records.push({ ...rest, payload: new Uint8Array(batch.payload), seq: this.seq++ })
    this.bytes += batch.payload.length
    for (const w of [...this.waiters]) w()
  }

  /** Removes and returns up to `max` batches, oldest first. */
  take(max = Infinity): Batch[] {
    const out = this.records.splice(0, max)
    for (const b of out) this.bytes -= b.payload.length
    return out
  }

  read(category: Category, afterSeq: number, maxBytes: number, throughSeq?: number) {
    const out: StoredBatch[] = []
    let bytes = 0
    for (const r of this.records) {
      if (r.category !== category || r.seq <= afterSeq) continue
      if (
        throughSeq !== undefined
          ? r.seq > throughSeq
          : out.length && bytes + r.payload.length > maxBytes
      )
        break
      out.push(r)
      bytes += r.payload.length
    }
    return out
  }

  /** Records are this buffer's own copies, kept until pruned: nothing to reuse. */
  release(): void {}

  waitFor(category: Category, afterSeq: number, signal: AbortSignal): Promise<void> {
    const ready = () =>
      signal.aborted || this.records.some((r) => r.category === category && r.seq > afterSeq)
    if (ready()) return Promise.resolve()
    return new Promise((resolve) => {
      const check = () => {
        if (!ready()) return
        this.waiters.delete(check)
        resolve()
      }
      this.waiters.add(check)
      signal.addEventListener('abort', check, { once: true })
    })
  }

  getCursor(reader: string): number {
    return this.cursors.get(reader) ?? 0
  }

  async setCursor(reader: string, seq: number): Promise<void> {
    this.cursors.set(reader, seq)
  }

  getPlan(reader: string): Plan | null {
    return this.plans.get(reader) ?? null
  }

  async setPlan(reader: string, plan: Plan): Promise<void> {
    this.plans.set(reader, plan)
  }

  async prune(category: Category, upTo: number): Promise<void> {
    const keep = this.records.filter((r) => r.category !== category || r.seq > upTo)
    for (const r of this.records) if (!keep.includes(r)) this.bytes -= r.payload.length
    this.records = keep
  }

  async addDeadLetter(d: DeadLetter, max: number): Promise<void> {
    this.dead.push(d)
    this.dead.splice(0, Math.max(0, this.dead.length - max))
  }

  deadLetters(): DeadLetter[] {
    return [...this.dead]
  }

  stats(): BufferStats {
    const points = this.records.reduce((n, r) => n + r.points, 0)
    return { batches: this.records.length, bytes: this.bytes, points }
  }

  async shutdown(): Promise<void> {
    this.closed = true
    for (const w of [...this.waiters]) w()
  }
}
