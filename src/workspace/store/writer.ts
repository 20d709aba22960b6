/**
 * Group commit of point writes. Requests wait in a bounded queue; the loop takes as many as
 * fit in `commitMaxPoints`, stores them in one transaction and settles every one of them after
 * COMMIT, so an acknowledged write is on disk and a failed one left nothing behind.
 *
 * A request whose package id was already stored within the dedupe window is acknowledged
 * without storing it again (the agent re-sends bodies with the same X-Pkg-Id after a crash).
 */
import type { DuckDBConnection } from '@duckdb/node-api'
import { FerryError } from '../../errors.js'
import type { Category } from '../../shared/category.js'
import type { TableBatch } from '../ingest/columns.js'
import type { Catalog } from './catalog.js'
import type { Db } from './db.js'
import { schemaName } from './names.js'
import { appendBatch } from './rows.js'

export interface WriteRequest {
  workspaceId: string
  category: Category
  tables: TableBatch[]
  /** Rows over all tables. */
  points: number
  pkgId: string | null
}

export interface WriteResult {
  stored: number
  duplicate: boolean
}

interface Pending {
  req: WriteRequest
  resolve: (r: WriteResult) => void
  reject: (e: unknown) => void
}

export interface WriterOptions {
  maxPendingPoints: number
  commitMaxPoints: number
  dedupeWindowMs: number
}

export class Writer {
  private queue: Pending[] = []
  private pendingPoints = 0
  private running = false
  private lastPrune = 0

  constructor(
    private readonly db: Db,
    private readonly catalog: Catalog,
    private readonly opts: WriterOptions,
  ) {}

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
          const results = await this.db.exclusive((con) => this.commit(con, batch))
          batch.forEach((p, i) => p.resolve(results[i]))
        } catch (e) {
          const err = new FerryError(
            'storageFailed',
            `cannot store points: ${(e as Error).message}`,
            { cause: e },
          )
          batch.forEach((p) => p.reject(err))
        } finally {
          for (const p of batch) this.pendingPoints -= p.req.points
        }
      }
    } finally {
      this.running = false
    }
  }

  private async commit(con: DuckDBConnection, batch: Pending[]): Promise<WriteResult[]> {
    await con.run('BEGIN TRANSACTION')
    try {
      const results: WriteResult[] = []
      const seen = await this.seenPackages(con, batch)
      for (const { req } of batch) {
        const key = `${req.workspaceId}/${req.pkgId}`
        if (req.pkgId && seen.has(key)) {
          results.push({ stored: 0, duplicate: true })
          continue
        }
        if (req.pkgId) seen.add(key)
        await this.store(con, req)
        results.push({ stored: req.points, duplicate: false })
      }
      await this.prunePackages(con)
      await con.run('COMMIT')
      return results
    } catch (e) {
      await con.run('ROLLBACK').catch(() => undefined)
      await this.catalog.load(async (sql) => (await con.runAndReadAll(sql)).getRows())
      throw e
    }
  }

  private async store(con: DuckDBConnection, req: WriteRequest): Promise<void> {
    for (const batch of req.tables) {
      const columns = await this.catalog.ensure(con, req.workspaceId, batch.table, batch.columns)
      const app = await con.createAppender(batch.table, schemaName(req.workspaceId))
      try {
        appendBatch(app, columns, batch)
        app.flushSync()
      } finally {
        app.closeSync()
      }
    }
    if (req.pkgId)
      await con.run('INSERT INTO meta.packages VALUES ($1, $2, $3)', [
        req.workspaceId,
        req.pkgId,
        Date.now(),
      ])
  }

  /** Ids of this batch already stored, as `workspace/pkg`; one lookup per workspace. */
  private async seenPackages(con: DuckDBConnection, batch: Pending[]): Promise<Set<string>> {
    const byWorkspace = new Map<string, string[]>()
    for (const { req } of batch)
      if (req.pkgId)
        byWorkspace.set(req.workspaceId, [...(byWorkspace.get(req.workspaceId) ?? []), req.pkgId])
    const seen = new Set<string>()
    for (const [ws, ids] of byWorkspace) {
      const list = ids.map((_, i) => `$${i + 2}`).join(', ')
      const r = await con.runAndReadAll(
        `SELECT pkg_id FROM meta.packages WHERE workspace_id = $1 AND pkg_id IN (${list})`,
        [ws, ...ids],
      )
      for (const [id] of r.getRows()) seen.add(`${ws}/${String(id)}`)
    }
    return seen
  }

  private async prunePackages(con: DuckDBConnection): Promise<void> {
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
