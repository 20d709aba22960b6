/**
 * At most `max` pipeline debug requests run at once; more are refused at once (429). A debug
 * script may spin for its whole time limit on a decode worker, so without this a few
 * concurrent requests would hold every worker and stall all writes.
 */
import { FerryError } from '../../errors.js'

export class DebugGate {
  private running = 0

  constructor(private readonly max: number) {}

  async run<T>(f: () => Promise<T>): Promise<T> {
    if (this.running >= this.max)
      throw new FerryError(
        'reachMaxAPILimit',
        `${this.max} pipeline debug request(s) already running ([pipeline] debug_concurrency)`,
        { retryAfter: 1 },
      )
    this.running++
    try {
      return await f()
    } finally {
      this.running--
    }
  }
}
