/**
 * Whether ClickHouse answers at all, judged by its `/ping` (answered by a live server however
 * busy, by nothing when it is down or frozen), so that a slow query is never taken for a dead
 * server. Invariants:
 * - A call that could not reach any node or passed its deadline asks for a check; the check
 *   pings every URL within `probeTimeoutMs` and the service is down when none answers.
 * - While down, every call fails at once with `storageFailed` (503) and `Retry-After`, instead
 *   of each waiting out its deadline: agents keep their bodies and retry, queries answer fast.
 * - While down a probe runs every `probeEveryMs` (one at a time); the first answer makes it up.
 * - Listeners hear each change once (down with the reason, then up with null).
 */
import { FerryError } from '../../../errors.js'

/** Seconds an agent is told to wait before sending again while ClickHouse is down. */
export const UNAVAILABLE_RETRY_AFTER_S = 5

export type HealthListener = (down: string | null) => void

export interface HealthOptions {
  /** Answers whether one node's `/ping` answered within the timeout. */
  ping: (timeoutMs: number) => Promise<boolean>
  probeTimeoutMs: number
  probeEveryMs: number
}

export class ClickHouseHealth {
  private reason: string | null = null
  private probing: Promise<void> | null = null
  private timer: NodeJS.Timeout | null = null
  private readonly listeners: HealthListener[] = []
  private closed = false

  constructor(private readonly o: HealthOptions) {}

  /** Why ClickHouse is taken for down, or null while it answers. */
  get down(): string | null {
    return this.reason
  }

  onChange(listener: HealthListener): void {
    this.listeners.push(listener)
  }

  /** Throws the fast 503 while down. */
  admit(): void {
    if (this.reason === null) return
    throw new FerryError('storageFailed', `ClickHouse is unavailable: ${this.reason}`, {
      retryAfter: UNAVAILABLE_RETRY_AFTER_S,
    })
  }

  /** A call failed without an answer (`why`): ping to tell a dead server from a slow call. */
  suspect(why: string): Promise<void> {
    if (this.closed || this.reason !== null) return Promise.resolve()
    this.probing ??= this.probe(why).finally(() => (this.probing = null))
    return this.probing
  }

  private async probe(why: string): Promise<void> {
    if (await this.o.ping(this.o.probeTimeoutMs)) return
    if (this.closed) return
    this.set(why)
    this.timer = setInterval(() => void this.retry(), this.o.probeEveryMs)
    this.timer.unref()
  }

  private async retry(): Promise<void> {
    if (this.probing || this.closed) return
    this.probing = this.o
      .ping(this.o.probeTimeoutMs)
      .then((ok) => {
        if (!ok || this.closed) return
        if (this.timer) clearInterval(this.timer)
        this.timer = null
        this.set(null)
      })
      .finally(() => (this.probing = null))
    await this.probing
  }

  private set(reason: string | null): void {
    this.reason = reason
    for (const l of this.listeners) l(reason)
  }

  close(): void {
    this.closed = true
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }
}
