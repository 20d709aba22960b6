/**
 * Group commit of point writes. Requests wait in a bounded queue; the loop takes as many as
 * fit in `commitMaxPoints`, stores them in one transaction and settles every one of them after
 * COMMIT, so an acknowledged write is on disk and a failed one left nothing behind.
 *
 * A group that fails is retried one body per transaction, so a body that cannot be stored
 * fails alone (failure.ts) and the others of its group, of any workspace, commit.
 *
 * A request dedupe.ts judges a duplicate of a body stored within the dedupe window (its id with
 * the same content, or its content under a new id) is acknowledged without storing it again.
 */
import type { DuckDBConnection } from '@duckdb/node-api'
import { FerryError } from '../../errors.js'
import type { Category } from '../../shared/category.js'
import type { Catalog } from './catalog.js'
import { commitBatch, type StoreContext } from './commit.js'
import type { Db } from './db.js'
import { writeFailure } from './failure.js'
import { SeriesIndex } from './series.js'
import type { WriteRequest, WriteResult } from './write-request.js'

export type { WriteRequest, WriteResult } from './write-request.js'

interface Pending {
  req: WriteRequest
  resolve: (r: WriteResult) => void
  reject: (e: unknown) => void
}

export interface WriterOptions {
  maxPendingPoints: number
  commitMaxPoints: number
  dedupeWindowMs: number
  /** Categories whose new tables take the series layout; none when absent. */
  seriesCategories?: readonly Category[]
  /** A body with a stored body's content is a duplicate under any id (dedupe.ts); default on. */
  dedupeByContent?: boolean
}

export class Writer {
  private queue: Pending[] = []
  private pendingPoints = 0
  private running = false
  private lastPrune = 0
  private readonly ctx: StoreContext
  /** The series dictionaries; reset by whoever deletes series rows (retention). */
  readonly series = new SeriesIndex()

  constructor(
    private readonly db: Db,
    catalog: Catalog,
    private readonly opts: WriterOptions,
  ) {
    this.ctx = {
      catalog,
      series: this.series,
      seriesCategories: new Set(opts.seriesCategories),
      dedupeByContent: opts.dedupeByContent ?? true,
    }
  }

  get pending(): number {
    return this.pendingPoints
  }

  submit(req: WriteRequest): Promise<WriteResult> {
    if (this.pendingPoints > 0 && this.pendingPoints + req.points > this.opts.maxPendingPoints)
      throw new FerryError('workspaceBusy', 'too many points waiting for a commit; retry later', {
        retryAfter: 1,
      })
    this.pendingPoints += req.points
    const done = new Promise<WriteResult>((resolve, reject) =>
      this.queue.push({ req, resolve, reject }),
    )
    if (!this.running) void this.loop()
    return done
  }

  private take(): Pending[] {
    const batch: Pending[] = []
    let points = 0
    while (
      this.queue.length &&
      (batch.length === 0 || points + this.queue[0].req.points <= this.opts.commitMaxPoints)
    ) {
      const p = this.queue.shift()!
      points += p.req.points
      batch.push(p)
    }
    return batch
  }

  private async loop(): Promise<void> {
    this.running = true
    try {
      while (this.queue.length) {
        const batch = this.take()
        try {
          await this.settle(batch)
        } finally {
          for (const p of batch) this.pendingPoints -= p.req.points
        }
      }
    } finally {
      this.running = false
    }
  }

  /** Commits the group; if that fails and it has more than one body, each body alone. */
  private async settle(batch: Pending[]): Promise<void> {
    try {
      const results = await this.commit(batch)
      batch.forEach((p, i) => p.resolve(results[i]))
      return
    } catch (e) {
      if (batch.length === 1) return batch[0].reject(writeFailure(e, true))
    }
    for (const p of batch)
      await this.commit([p]).then(
        ([r]) => p.resolve(r),
        (e: unknown) => p.reject(writeFailure(e, true)),
      )
  }

  private commit(batch: Pending[]): Promise<WriteResult[]> {
    const reqs = batch.map((p) => p.req)
    return this.db.exclusive((con) => commitBatch(con, this.ctx, reqs, (c) => this.prune(c)))
  }

  private async prune(con: DuckDBConnection): Promise<void> {
    const now = Date.now()
    if (now - this.lastPrune < 60_000) return
    this.lastPrune = now
    await con.run('DELETE FROM meta.packages WHERE seen_at < $1', [now - this.opts.dedupeWindowMs])
  }

  /** Waits for every queued write to settle. */
  async drain(): Promise<void> {
    while (this.running || this.queue.length) await new Promise((r) => setTimeout(r, 10))
  }
}
