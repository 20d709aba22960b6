/**
 * The agent's aggregation buckets (agg_create/agg_metric), on the main thread: every decode
 * worker's operations land here (`apply`), and each bucket's metric points leave through
 * `sink`, the same path as collected points (checks, global tags, the buffer).
 *
 * Invariants:
 * - At most `maxBuckets` buckets and `maxSeries` series per bucket; a bucket or series past
 *   a limit is refused, and each value it would have taken is counted and reported.
 * - A bucket flushes every `on_interval` (at least `minIntervalMs`), and after `on_count`
 *   values when set; `shutdown` stops the timers and flushes every bucket once, so values
 *   added before a clean stop are emitted.
 * - A bucket lives until the agent stops (as the reference's, for its pipeline's lifetime).
 */
import type { Component } from '../../component.js'
import type { Category } from '../../shared/category.js'
import type { Point } from '../../shared/point.js'
import { Bucket } from './bucket.js'
import type { AggAdd, AggCreate, AggOp } from './ops.js'

export type AggRefusal = 'buckets' | 'series'

/** Where the buckets report (the pipeline's telemetry events). */
export interface AggReport {
  refused(reason: AggRefusal, category: Category, bucket: string, values: number): void
  flushed(category: Category, bucket: string, points: number): void
  flushFailed(category: Category, bucket: string, points: number, error: unknown): void
}

export interface AggOptions {
  maxBuckets: number
  maxSeries: number
  /** Shortest flush period; shorter `on_interval`s are raised to it. */
  minIntervalMs: number
  /** Nanoseconds now, for the points' time. */
  now?: () => bigint
}

export type AggSink = (category: Category, points: Point[]) => Promise<unknown>

/** Refused bucket names remembered to count their values; more are refused uncounted by name. */
const MAX_REFUSED_NAMES = 10_000

export class AggBuckets implements Component {
  readonly name = 'pipeline-agg'
  private readonly buckets = new Map<string, Bucket>()
  private readonly timers = new Set<NodeJS.Timeout>()
  private readonly refusedNames = new Set<string>()
  private readonly pending = new Set<Promise<void>>()
  private stopped = false

  constructor(
    private readonly o: AggOptions,
    private readonly sink: AggSink,
    private readonly report: AggReport,
  ) {}

  async start(): Promise<void> {}

  /** Applies a task's operations in order. */
  apply(ops: AggOp[]): void {
    if (this.stopped) return
    for (const op of ops) {
      if (op.op === 'create') this.create(op)
      else this.add(op)
    }
  }

  private create(op: AggCreate): void {
    const id = `${op.category}/${op.bucket}`
    if (this.buckets.has(id)) return
    if (this.buckets.size >= this.o.maxBuckets) {
      if (this.refusedNames.size < MAX_REFUSED_NAMES) this.refusedNames.add(id)
      this.report.refused('buckets', op.category, op.bucket, 0)
      return
    }
    const b = new Bucket(op, this.o.maxSeries)
    this.buckets.set(id, b)
    if (op.intervalMs > 0) {
      const t = setInterval(() => this.flush(b), Math.max(op.intervalMs, this.o.minIntervalMs))
      t.unref()
      this.timers.add(t)
    }
  }

  private add(op: AggAdd): void {
    const id = `${op.category}/${op.bucket}`
    const b = this.buckets.get(id)
    if (!b) {
      // As the reference, a value for a bucket never created does nothing; one refused counts.
      if (this.refusedNames.has(id)) this.report.refused('buckets', op.category, op.bucket, 1)
      return
    }
    if (b.add(op) === 'series_limit') this.report.refused('series', op.category, op.bucket, 1)
    else if (b.due) this.flush(b)
  }

  private flush(b: Bucket): void {
    const now = this.o.now ? this.o.now() : BigInt(Date.now()) * 1_000_000n
    const points = b.take(now)
    if (points.length === 0) return
    const { category, bucket } = b.spec
    const done = this.sink(category, points).then(
      () => this.report.flushed(category, bucket, points.length),
      (e: unknown) => this.report.flushFailed(category, bucket, points.length, e),
    )
    this.pending.add(done)
    void done.finally(() => this.pending.delete(done))
  }

  /** Buckets held and series in them, for tests and the docs' figures. */
  stats(): { buckets: number; series: number } {
    let series = 0
    for (const b of this.buckets.values()) series += b.size
    return { buckets: this.buckets.size, series }
  }

  async shutdown(): Promise<void> {
    if (this.stopped) return
    this.stopped = true
    for (const t of this.timers) clearInterval(t)
    this.timers.clear()
    for (const b of this.buckets.values()) this.flush(b)
    this.buckets.clear()
    await Promise.all([...this.pending])
  }
}
