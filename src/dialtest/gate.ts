/** At most `max` dial tests at once; more are refused at once (429) rather than queued. */
import { FerryError } from '../errors.js'

export class DialGate {
  private running = 0

  constructor(private readonly max: number) {}

  async run<T>(f: () => Promise<T>): Promise<T> {
    if (this.running >= this.max)
      throw new FerryError(
        'reachMaxAPILimit',
        `${this.max} dial test(s) already running ([dialtesting] debug_concurrency)`,
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
