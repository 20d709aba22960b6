/**
 * Shedding bookkeeping: which clients are shed (refused by their per-client limit and not yet
 * past the Retry-After that refusal announced), the requests of theirs held until then, and the
 * connections each peer address has open.
 *
 * Invariants: a client is shed for at most the seconds its refusal announced (a later refusal
 * may extend it, never past its own Retry-After); at most `maxParked` requests are held in all,
 * each released (answered) when its client's shed ends or on `clear`; at most `MAX_CLIENTS`
 * clients are shed at once (past it a refused client is not shed: its requests take the normal
 * path, answered 429 there); an address has at most `maxConnectionsPerClient` connections
 * counted (0: no cap). Nothing here answers or reads a request: `gate.ts` does.
 */
export interface ShedLimits {
  enabled: boolean
  maxParked: number
  maxConnectionsPerClient: number
}

export interface ShedEvents {
  /** A client refused by its per-client limit is shed for `seconds`. */
  started(client: string, seconds: number): void
  /** Its shed ended: `held` requests were held and answered 429. */
  ended(client: string, held: number): void
  /** A shed client's request answered 429 at once: `[http_api] shed_max_parked` are held. */
  refused(client: string): void
  /** A connection closed at once: its peer had `open` connections already. */
  connectionRefused(peer: string, open: number): void
}

/** The most clients shed at once, as many as the rate limiter keeps buckets for. */
export const MAX_CLIENTS = 10_000

interface Shed {
  until: number
  timer: NodeJS.Timeout
  parked: (() => void)[]
}

export class ShedTable {
  private readonly shed = new Map<string, Shed>()
  private readonly connections = new Map<string, number>()
  private parkedCount = 0

  constructor(
    public limits: ShedLimits,
    readonly events: ShedEvents,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Sheds `client` for `ms` from now (or keeps a longer shed under way). False when shedding is
   * off or the table is full, true when the client is shed.
   */
  refuse(client: string, ms: number): boolean {
    if (!this.limits.enabled || ms <= 0) return false
    const until = this.now() + ms
    const s = this.shed.get(client)
    if (s) {
      if (until > s.until) {
        clearTimeout(s.timer)
        s.until = until
        s.timer = this.expire(client, ms)
      }
      return true
    }
    if (this.shed.size >= MAX_CLIENTS) return false
    this.shed.set(client, { until, timer: this.expire(client, ms), parked: [] })
    this.events.started(client, ms / 1000)
    return true
  }

  /** Milliseconds left of `client`'s shed; 0 when it is not shed. */
  remaining(client: string): number {
    const s = this.shed.get(client)
    return s ? Math.max(0, s.until - this.now()) : 0
  }

  /**
   * Holds `release` until `client`'s shed ends. False (nothing held) when the client is not
   * shed or `maxParked` requests are held already.
   */
  park(client: string, release: () => void): boolean {
    const s = this.shed.get(client)
    if (!s || this.parkedCount >= this.limits.maxParked) return false
    s.parked.push(release)
    this.parkedCount++
    return true
  }

  get parked(): number {
    return this.parkedCount
  }

  get clients(): number {
    return this.shed.size
  }

  /** Counts a new connection of `peer`; false (not counted) past the per-client cap. */
  connect(peer: string): boolean {
    const n = this.connections.get(peer) ?? 0
    const cap = this.limits.maxConnectionsPerClient
    if (cap > 0 && n >= cap) return false
    this.connections.set(peer, n + 1)
    return true
  }

  disconnect(peer: string): void {
    const left = (this.connections.get(peer) ?? 1) - 1
    if (left > 0) this.connections.set(peer, left)
    else this.connections.delete(peer)
  }

  connectionsOf(peer: string): number {
    return this.connections.get(peer) ?? 0
  }

  /** Ends every shed now, releasing what is held (shutdown). */
  clear(): void {
    for (const client of [...this.shed.keys()]) this.end(client)
  }

  private expire(client: string, ms: number): NodeJS.Timeout {
    const t = setTimeout(() => this.end(client), ms)
    t.unref()
    return t
  }

  private end(client: string): void {
    const s = this.shed.get(client)
    if (!s) return
    clearTimeout(s.timer)
    this.shed.delete(client)
    this.parkedCount -= s.parked.length
    for (const release of s.parked) release()
    this.events.ended(client, s.parked.length)
  }
}
