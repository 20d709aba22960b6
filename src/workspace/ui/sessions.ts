/**
 * Browser sessions of the workspace UI: a random id (the cookie) stands for the API key the
 * user logged in with, so the key itself never reaches the page's JavaScript. Sessions expire
 * `ttlMs` after login and at most `max` are held: a new login beyond that evicts the oldest,
 * so a flood of logins cannot grow memory. Held in memory only: a restart logs everyone out.
 */
import crypto from 'node:crypto'

export interface Session {
  key: string
  expiresAt: number
}

export class Sessions {
  /** Insertion order is login order: the first entry is the oldest. */
  private readonly map = new Map<string, Session>()

  constructor(
    private readonly max: number,
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.map.size
  }

  /** A new session for `key`; its id is 256 random bits, hex. */
  create(key: string): string {
    const id = crypto.randomBytes(32).toString('hex')
    this.map.set(id, { key, expiresAt: this.now() + this.ttlMs })
    while (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string)
    return id
  }

  /** The API key of a live session, or null (an expired one is forgotten on the way). */
  key(id: string | undefined): string | null {
    if (!id) return null
    const s = this.map.get(id)
    if (!s) return null
    if (s.expiresAt <= this.now()) {
      this.map.delete(id)
      return null
    }
    return s.key
  }

  end(id: string | undefined): void {
    if (id) this.map.delete(id)
  }
}
