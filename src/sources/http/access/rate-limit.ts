/**
 * Per client and route token buckets (`[http_api] request_rate_limit` per second, bursts of
 * `request_rate_limit_burst`, by default as many as the rate). A limit of 0 or less turns the
 * limiter off. Buckets idle for a minute are forgotten, and at most `maxKeys` are kept (the
 * least recently used go first), so a flood of client addresses cannot grow memory.
 */
const IDLE_MS = 60_000

interface Bucket {
  tokens: number
  at: number
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>()
  private burst = 1

  constructor(
    private rate: number,
    burst: number,
    private readonly maxKeys = 10_000,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.configure(rate, burst)
  }

  get limit(): number {
    return this.rate
  }

  get enabled(): boolean {
    return this.rate > 0
  }

  configure(rate: number, burst: number): void {
    this.rate = rate
    this.burst = burst > 0 ? burst : Math.max(1, Math.floor(rate))
  }

  /** Takes one token for `key`; false when the bucket is empty. */
  take(key: string): boolean {
    if (!this.enabled) return true
    const now = this.now()
    let b = this.buckets.get(key)
    if (b) {
      this.buckets.delete(key)
      b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.rate)
      b.at = now
    } else {
      b = { tokens: this.burst, at: now }
      this.evict(now)
    }
    this.buckets.set(key, b)
    if (b.tokens < 1) return false
    b.tokens -= 1
    return true
  }

  size(): number {
    return this.buckets.size
  }

  private evict(now: number): void {
    // Map order is least recently used first (take() re-inserts), so stop at the first live one.
    for (const [key, b] of this.buckets) {
      if (this.buckets.size < this.maxKeys && now - b.at < IDLE_MS) break
      this.buckets.delete(key)
    }
  }
}
