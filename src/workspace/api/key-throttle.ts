/**
 * Wrong API keys per client address, for the UI's login form and the Open API's `DF-API-KEY`
 * alike: after `limit` failures (an attempt counts as one until its key proves good) within `windowMs` of an address's first one, every key from
 * that address (right or wrong, so guessing learns nothing) is answered 429 with
 * `Retry-After` until the window ends. At most `maxClients` addresses are remembered; beyond
 * that the one idle longest is forgotten. The address is the connection's own (no forwarding
 * header is believed here): in-process calls (the UI's forwarding) carry their client's.
 */
import type { Context } from 'hono'
import { FerryError } from '../../errors.js'
import { LruMap } from '../../shared/lru.js'
import type { WorkspaceEnv } from './env.js'

export interface ThrottleLimits {
  limit: number
  windowMs: number
  maxClients: number
}

interface Window {
  start: number
  failures: number
}

export class KeyThrottle {
  private readonly clients: LruMap<string, Window>

  constructor(private readonly limits: ThrottleLimits) {
    this.clients = new LruMap(limits.maxClients)
  }

  /** Seconds until `client` may try a key again; 0 while it is under its failures. */
  retryAfter(client: string, now = Date.now()): number {
    const w = this.current(client, now)
    if (!w || w.failures < this.limits.limit) return 0
    return Math.max(1, Math.ceil((w.start + this.limits.windowMs - now) / 1000))
  }

  /**
   * Admits one key attempt from `client`, counted as a failure until `forgive` says the key
   * was good: concurrent guesses are counted before any is checked, so a burst cannot slip
   * past the limit. Throws `tooManyKeyAttempts` when `client` is over its failures.
   */
  admit(client: string, now = Date.now()): void {
    const seconds = this.retryAfter(client, now)
    if (seconds > 0)
      throw new FerryError(
        'tooManyKeyAttempts',
        `too many wrong API keys from this address: try again in ${seconds} s`,
        { retryAfter: seconds },
      )
    const w = this.current(client, now)
    if (w) w.failures++
    else this.clients.set(client, { start: now, failures: 1 })
  }

  /** The admitted key was good: its attempt is not a failure. */
  forgive(client: string, now = Date.now()): void {
    const w = this.current(client, now)
    if (w && w.failures > 0) w.failures--
  }

  private current(client: string, now: number): Window | undefined {
    const w = this.clients.get(client)
    if (w && now - w.start >= this.limits.windowMs) {
      this.clients.delete(client)
      return undefined
    }
    return w
  }
}

/** The connection's address (or the one an in-process call was made for); else `local`. */
export function clientAddress(c: Context<WorkspaceEnv>): string {
  return c.env?.client ?? c.env?.incoming?.socket?.remoteAddress ?? 'local'
}
