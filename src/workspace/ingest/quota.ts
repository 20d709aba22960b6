/**
 * The per-workspace ingest quota: a token bucket of `rate` points per second holding at most
 * one second's worth. A body is admitted while the bucket is not empty (it may take it below
 * zero, so a body larger than a second's worth still passes once the bucket refills); over the
 * quota the write is answered 429 with the seconds until the bucket is positive again, and one
 * busy workspace cannot take the commit queue from the others. A rate of 0 means no quota.
 */
import { FerryError } from '../../errors.js'

interface Bucket {
  tokens: number
  at: number
}

export class IngestQuota {
  private readonly buckets = new Map<string, Bucket>()

  constructor(
    private readonly rate: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes `points` from the workspace's bucket or throws ingestQuotaExceeded. */
  take(workspaceId: string, points: number): void {
    if (this.rate <= 0) return
    const now = this.now()
    const b = this.buckets.get(workspaceId) ?? { tokens: this.rate, at: now }
    b.tokens = Math.min(this.rate, b.tokens + ((now - b.at) / 1000) * this.rate)
    b.at = now
    this.buckets.set(workspaceId, b)
    if (b.tokens <= 0)
      throw new FerryError(
        'ingestQuotaExceeded',
        `the workspace is over its ingest quota of ${this.rate} points/s; retry later`,
        { retryAfter: Math.max(1, Math.ceil(-b.tokens / this.rate)) },
      )
    b.tokens -= points
  }
}
