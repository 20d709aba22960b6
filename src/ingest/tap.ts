/**
 * Taps: accepted points (after the pipeline, as buffered) copied to attached watchers
 * (`GET /v1/tap`, `ferry tap`). With no tap attached `active` is false and `accept` does nothing
 * more than read it. Each tap has a bounded queue of points: a slow reader loses points (counted)
 * and never holds a write back, since offering only appends a reference to bytes already made.
 */
import { FerryError } from '../errors.js'

export interface TapEvents {
  attached(clients: number): void
  detached(clients: number): void
  dropped(category: string, points: number): void
}

export interface TapBatch {
  category: string
  /** PBPoints bytes, exactly as buffered. */
  payload: Uint8Array
  points: number
}

export class TapClient {
  private readonly queue: TapBatch[] = []
  private queued = 0
  private wake: (() => void) | null = null
  closed = false

  constructor(
    /** Empty: every category. */
    readonly categories: ReadonlySet<string>,
    private readonly maxPoints: number,
    private readonly events: TapEvents,
    private readonly detach: (c: TapClient) => void,
  ) {}

  offer(b: TapBatch): void {
    if (this.categories.size && !this.categories.has(b.category)) return
    if (this.queued + b.points > this.maxPoints) return this.events.dropped(b.category, b.points)
    this.queue.push(b)
    this.queued += b.points
    this.wake?.()
  }

  /** The next batch, or null once closed. */
  async next(): Promise<TapBatch | null> {
    while (!this.queue.length && !this.closed) await new Promise<void>((r) => (this.wake = r))
    this.wake = null
    const b = this.queue.shift()
    if (!b) return null
    this.queued -= b.points
    return b
  }

  /** Idempotent. */
  close(): void {
    if (this.closed) return
    this.closed = true
    this.queue.length = 0
    this.wake?.()
    this.detach(this)
  }
}

export class TapHub {
  private readonly clients = new Set<TapClient>()

  constructor(
    private readonly o: { maxClients: number; queuePoints: number },
    private readonly events: TapEvents,
  ) {}

  /** Read on every accepted batch: the whole cost of taps when none is attached. */
  get active(): boolean {
    return this.clients.size > 0
  }

  offer(b: TapBatch): void {
    for (const c of this.clients) c.offer(b)
  }

  attach(categories: ReadonlySet<string>): TapClient {
    if (this.clients.size >= this.o.maxClients)
      throw new FerryError(
        'tapBusy',
        `${this.o.maxClients} taps attached already ([tap] max_clients)`,
      )
    const client = new TapClient(categories, this.o.queuePoints, this.events, (c) => {
      if (this.clients.delete(c)) this.events.detached(this.clients.size)
    })
    this.clients.add(client)
    this.events.attached(this.clients.size)
    return client
  }

  /** Detaches every tap (shutdown). */
  closeAll(): void {
    for (const c of [...this.clients]) c.close()
  }
}
