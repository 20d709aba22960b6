/**
 * Shedding bookkeeping: which clients are shed (refused by their per-client limit and not yet
 * past the Retry-After that refusal announced), the requests of theirs held until then, and the
 * connections each peer address has open.
 *
 * A client that sent requests while shed (it did not wait as told) and is refused again before
 * twice that shed has passed is shed twice as long as the last time, up to `maxMs`; the
 * refusal announces that time in its Retry-After.
 *
 * Invariants: a client is shed for at most the seconds its refusal announced (a later refusal
 * may extend it, never past its own Retry-After) and never longer than `maxMs`; at most `maxParked` requests are held in all,
 * each released (answered) when its client's shed ends or on `clear`; at most `MAX_CLIENTS`
 * clients are shed at once (past it a refused client is not shed: its requests take the normal
 * path, answered 429 there); an address has at most `maxConnectionsPerClient` connections
 * counted (0: no cap). Nothing here answers or reads a request: `gate.ts` does.
 */
export interface ShedLimits {
  enabled: boolean
  maxParked: number
  maxConnectionsPerClient: number
  /** The longest shed, in ms, however often a client is shed again. */
  maxMs: number
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
  ms: number
  timer: NodeJS.Timeout
  parked: (() => void)[]
}

/** A client whose last shed held requests: its next shed, if it comes before `until`, is `ms`. */
interface Strike {
  ms: number
  until: number
}

export class ShedTable {
  private readonly shed = new Map<string, Shed>()
  private readonly connections = new Map<string, number>()
  private readonly strikes = new Map<string, Strike>()
  private parkedCount = 0

  constructor(
    public limits: ShedLimits,
    readonly events: ShedEvents,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Sheds `client` for `ms` from now, or longer if it did not wait out its last shed (or keeps a
   * longer shed under way). Returns the seconds it is shed for (its Retry-After); 0 when
   * shedding is off or the table is full.
   */
  refuse(client: string, ms: number): number {
    if (!this.limits.enabled || ms <= 0) return 0
    const now = this.now()
    const s = this.shed.get(client)
    if (s) {
      if (now + ms > s.until) this.restart(client, s, now + ms)
      return Math.ceil((s.until - now) / 1000)
    }
    if (this.shed.size >= MAX_CLIENTS) return 0
    const strike = this.strikes.get(client)
    const long = strike && strike.until > now ? Math.max(ms, strike.ms) : ms
    const shed = Math.min(long, Math.max(ms, this.limits.maxMs))
    this.strikes.delete(client)
    this.shed.set(client, {
      until: now + shed,
      ms: shed,
      timer: this.expire(client, shed),
      parked: [],
    })
    this.events.started(client, shed / 1000)
    return Math.ceil(shed / 1000)
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

  private restart(client: string, s: Shed, until: number): void {
    clearTimeout(s.timer)
    s.until = until
    s.timer = this.expire(client, until - this.now())
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
    if (s.parked.length > 0) this.strike(client, s.ms)
  }

  /** Remembers a shed that held requests, for twice its time (at most MAX_CLIENTS kept). */
  private strike(client: string, ms: number): void {
    if (this.strikes.size >= MAX_CLIENTS) {
      const oldest = this.strikes.keys().next().value
      if (oldest !== undefined) this.strikes.delete(oldest)
    }
    this.strikes.set(client, { ms: ms * 2, until: this.now() + ms * 2 })
  }
}
