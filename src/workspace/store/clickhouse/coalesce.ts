/**
 * Calls made while earlier ones are under way go to the server together: at most `inFlight`
 * batches at a time, each of at most `maxBatch` items, every item answered from its batch's
 * result (or failed with its batch). Nothing waits on a timer: an idle coalescer sends the
 * first item at once, and under load the items that queued behind a batch make the next one,
 * so one round trip serves the bodies in flight instead of one each. The queue holds no more
 * than the callers waiting on it (the engine bounds those by `max_pending_points`).
 */
interface Waiting<I, O> {
  item: I
  resolve(out: O): void
  reject(e: unknown): void
}

export class Coalescer<I, O> {
  private readonly waiting: Waiting<I, O>[] = []
  private running = 0

  constructor(
    /** One result per item, in the items' order. */
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly inFlight = 2,
    private readonly maxBatch = 256,
  ) {}

  call(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject })
      void this.pump()
    })
  }

  private async pump(): Promise<void> {
    if (this.running >= this.inFlight || !this.waiting.length) return
    this.running++
    const batch = this.waiting.splice(0, this.maxBatch)
    try {
      const out = await this.run(batch.map((w) => w.item))
      batch.forEach((w, i) => w.resolve(out[i]))
    } catch (e) {
      for (const w of batch) w.reject(e)
    } finally {
      this.running--
      void this.pump()
    }
  }
}
