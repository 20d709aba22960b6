/**
 * Two budgets that keep one client from taking the agent: requests a client may have in flight
 * at once (past it: 429 at once, before any body is read), and body bytes all clients may have
 * in memory at once (past it: 503 with Retry-After, before the body is read). Both cost a map
 * lookup; both are released when the request ends, whatever its outcome.
 */
import { FerryError } from '../../../errors.js'

export class InFlight {
  private readonly perClient = new Map<string, number>()
  private bodyBytes = 0

  constructor(
    public maxPerClient: number,
    public maxBodyBytes: number,
  ) {}

  /** Takes a request slot for `client`, or throws 429. Returns the release. */
  enter(client: string): () => void {
    const n = this.perClient.get(client) ?? 0
    if (this.maxPerClient > 0 && n >= this.maxPerClient)
      throw new FerryError(
        'reachMaxAPILimit',
        `more than ${this.maxPerClient} requests in flight from ${client}`,
        { retryAfter: 1 },
      )
    this.perClient.set(client, n + 1)
    let released = false
    return () => {
      if (released) return
      released = true
      const left = (this.perClient.get(client) ?? 1) - 1
      if (left > 0) this.perClient.set(client, left)
      else this.perClient.delete(client)
    }
  }

  /** Reserves `bytes` of body memory, or throws 503 (the client retries). Returns the release. */
  reserve(bytes: number): () => void {
    if (this.bodyBytes > 0 && this.bodyBytes + bytes > this.maxBodyBytes)
      throw new FerryError(
        'agentBusy',
        `${this.bodyBytes} bytes of request bodies are being read or decoded; retry later`,
        { retryAfter: 1 },
      )
    this.bodyBytes += bytes
    let released = false
    return () => {
      if (released) return
      released = true
      this.bodyBytes -= bytes
    }
  }
}
