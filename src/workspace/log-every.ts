/**
 * At most one log line per key per interval, with the count of the ones held back, for events
 * that can repeat on every request (a damaged block, a reused package id). The keys remembered
 * are bounded: past `keep`, the oldest is forgotten (and may log again early).
 */
export class LogEvery {
  /** Key -> when it was last logged and how often it was held back since. */
  private readonly seen = new Map<string, { at: number; since: number }>()

  constructor(
    private readonly everyMs: number,
    private readonly keep: number,
  ) {}

  /** The lines held back since the key was last logged, or null when this one is held back. */
  admit(key: string, now = Date.now()): number | null {
    const last = this.seen.get(key)
    if (last && now - last.at < this.everyMs) {
      last.since++
      return null
    }
    this.seen.delete(key)
    this.seen.set(key, { at: now, since: 0 })
    if (this.seen.size > this.keep) this.seen.delete(this.seen.keys().next().value!)
    return last ? last.since : 0
  }
}
