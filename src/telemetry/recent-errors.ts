/**
 * The last errors worth a person's attention (external collectors' reports, upload failures,
 * internal errors), newest first, for `ferry monitor` and `/monitor`. A fixed-size ring: old
 * entries fall off, so it never grows.
 */
export interface RecentError {
  /** Unix milliseconds. */
  at: number
  /** Where it came from: `lasterror`, `upload`, `drop`, `internal`. */
  kind: string
  /** The collector, upstream or component it concerns. */
  source: string
  message: string
}

export class RecentErrors {
  private readonly ring: RecentError[] = []

  constructor(private readonly size = 20) {}

  add(kind: string, source: string, message: string): void {
    this.ring.unshift({ at: Date.now(), kind, source, message: message.slice(0, 1000) })
    if (this.ring.length > this.size) this.ring.pop()
  }

  list(): RecentError[] {
    return [...this.ring]
  }
}

/**
 * Keeps a label's values bounded: the first `max` distinct values pass, later ones become
 * `other` (for labels clients choose, such as a collector's name).
 */
export class BoundedLabel {
  private readonly seen = new Set<string>()

  constructor(private readonly max = 64) {}

  value(v: string): string {
    if (this.seen.has(v)) return v
    if (this.seen.size >= this.max) return 'other'
    this.seen.add(v)
    return v
  }
}
