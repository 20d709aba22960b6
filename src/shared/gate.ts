/**
 * At most `max` of something at once; more are refused at once (429 with Retry-After) rather
 * than queued, so a burst of slow requests (a debug script spinning to its time limit, a dial
 * test waiting on a slow target) can never hold every worker or pile up.
 */
import { FerryError } from '../errors.js'

export class ConcurrencyGate {
  private running = 0

  /** `what` names the work and its key in the refusal, e.g. "dial test(s) ... ([x] y)". */
  constructor(
    private readonly max: number,
    private readonly what: string,
  ) {}

  async run<T>(f: () => Promise<T>): Promise<T> {
    if (this.running >= this.max)
      throw new FerryError('reachMaxAPILimit', `${this.max} ${this.what}`, { retryAfter: 1 })
    this.running++
    try {
      return await f()
    } finally {
      this.running--
    }
  }
}
