/**
 * The ClickHouse storage engine (StorageEngine, ../engine.ts): points in one database per
 * workspace (catalog.ts), one RowBinary INSERT per table of a body (insert.ts), package ids in
 * `<prefix>_meta.packages`, retention by dropping day partitions (retention.ts). Many
 * processes may run it over one ClickHouse: it keeps only caches.
 *
 * Dedupe (../dedupe.ts, the same judge as DuckDB's): a body whose package id was stored within
 * the window with the same content, or whose content was stored under any id, is answered
 * duplicate; a body whose id or content is in flight in this process waits for the first,
 * then is judged against what it recorded. The id is
 * recorded after the rows, so a process killed between the two stores the retried body again:
 * on plain MergeTree that is the residual duplicate; replicated tables drop the identical
 * retried block.
 *
 * Bounds: at most `maxPendingPoints` points in flight (then `workspaceBusy`, 503); every call
 * has a deadline (`timeoutMs`), past which the caller gets an error and ClickHouse is left to
 * finish or abort on its own.
 */
import { FerryError } from '../../../errors.js'
import type { Category } from '../../../shared/category.js'
import { dedupeQueries, DedupeJudge } from '../dedupe.js'
import type { PackageRecord } from '../packages.js'
import type { Rows } from '../db.js'
import type { QueryParam, StorageEngine } from '../engine.js'
import type { ObjectPage, ObjectQuery } from '../objects.js'
import type { RetentionConfig, SweepResult } from '../retention.js'
import type { WriteRequest, WriteResult } from '../write-request.js'
import { ClickHouseCatalog } from './catalog.js'
import { UNAVAILABLE_RETRY_AFTER_S } from './health.js'
import type { ClickHouseClient } from './client.js'
import { encodeBatch } from './insert.js'
import { META_TABLES } from './meta-ddl.js'
import { MetaTables } from './meta-tables.js'
import { clickHouseObjects } from './objects.js'
import { sweepClickHouse } from './retention.js'
import { ClickHouseRetentionOverrides } from './retention-overrides.js'
import { bindParams } from './sql.js'

export interface ClickHouseEngineOptions {
  /** Databases are `<prefix>_meta` and `<prefix>_w_<hex>` per workspace. */
  prefix: string
  dedupeWindowMs: number
  /** Bodies re-sent under a new id count as duplicates by their content (dedupe.ts). */
  dedupeByContent: boolean
  maxPendingPoints: number
  insertTimeoutMs: number
  queryTimeoutMs: number
}

const PACKAGES = META_TABLES.packages
/** How soon a table or column made by another process is known to this one's queries. */
export const CATALOG_REFRESH_MS = 2_000

export class ClickHouseEngine implements StorageEngine {
  readonly dialect = 'clickhouse'
  private pending = 0
  private readonly inFlight = new Map<string, Promise<WriteResult>>()
  private readonly refresher: NodeJS.Timeout

  private constructor(
    private readonly client: ClickHouseClient,
    private readonly meta: MetaTables,
    readonly catalog: ClickHouseCatalog,
    private readonly opts: ClickHouseEngineOptions,
  ) {
    this.refresher = setInterval(
      () => void this.catalog.refresh().catch(() => undefined),
      CATALOG_REFRESH_MS,
    )
    this.refresher.unref()
  }

  static async open(
    client: ClickHouseClient,
    o: ClickHouseEngineOptions,
  ): Promise<ClickHouseEngine> {
    const meta = new MetaTables(client, `${o.prefix}_meta`, o.queryTimeoutMs)
    await meta.create()
    const ddl = (sql: string) => client.command(sql, { timeoutMs: o.queryTimeoutMs })
    const db = (ws: string) => `${o.prefix}_w_${ws.replace(/^wksp_/, '')}`
    const catalog = new ClickHouseCatalog(meta, ddl, db)
    await catalog.load()
    return new ClickHouseEngine(client, meta, catalog, o)
  }

  async ingest(req: WriteRequest): Promise<WriteResult> {
    if (this.pending + req.points > this.opts.maxPendingPoints && this.pending > 0)
      throw new FerryError('workspaceBusy', 'too many points waiting for ClickHouse', {
        retryAfter: 1,
      })
    this.pending += req.points
    try {
      return await this.judged(req)
    } catch (e) {
      throw unstored(e)
    } finally {
      this.pending -= req.points
    }
  }

  /**
   * Stores `req` after any body in flight here with its id or its content: judged after them,
   * against what they recorded (the same body twice at once is stored once).
   */
  private async judged(req: WriteRequest): Promise<WriteResult> {
    const keys = [req.pkgId ? `id\n${req.workspaceId}\n${req.pkgId}` : '']
    if (req.timed && req.fingerprint)
      keys.push(`fp\n${req.workspaceId}\n${req.category}\n${req.fingerprint}`)
    const live = keys.filter((k) => k)
    for (;;) {
      const earlier = live.map((k) => this.inFlight.get(k)).find((x) => x !== undefined)
      if (!earlier) break
      await earlier.catch(() => undefined)
    }
    const p = this.storeOnce(req)
    for (const k of live) this.inFlight.set(k, p)
    try {
      return await p
    } finally {
      for (const k of live) if (this.inFlight.get(k) === p) this.inFlight.delete(k)
    }
  }

  private async storeOnce(req: WriteRequest): Promise<WriteResult> {
    const byContent = this.opts.dedupeByContent
    const judge = new DedupeJudge(await this.seen(req, byContent), byContent)
    const verdict = judge.judge(req)
    if (!verdict.store) return { stored: 0, duplicate: true, dedupe: verdict.by }
    const r = await this.store(req)
    const rec = judge.stored(req)
    if (rec)
      await this.meta.put(PACKAGES, [
        [rec.workspaceId, rec.pkgId, rec.category ?? '', rec.fingerprint ?? '', Date.now()],
      ])
    return verdict.reusedId ? { ...r, reusedId: true } : r
  }

  /** The stored bodies within the window with the request's id or (by content) fingerprint. */
  private async seen(req: WriteRequest, byContent: boolean): Promise<PackageRecord[]> {
    const [q] = dedupeQueries([req], byContent)
    if (!q.pkgIds.length && !q.fingerprints.length) return []
    const rows = await this.meta.select(
      PACKAGES,
      'pkg_id, category, fingerprint',
      "workspace_id = $1 AND seen_at >= $2 AND ((pkg_id = $3 AND pkg_id != '') OR (fingerprint = $4 AND fingerprint != ''))",
      [
        req.workspaceId,
        Date.now() - this.opts.dedupeWindowMs,
        q.pkgIds[0] ?? '',
        q.fingerprints[0] ?? '',
      ],
    )
    return (rows as string[][]).map(([pkgId, category, fp]) => ({
      workspaceId: req.workspaceId,
      pkgId,
      category: (category || null) as Category | null,
      fingerprint: fp || null,
    }))
  }

  private async store(req: WriteRequest): Promise<WriteResult> {
    for (const batch of req.tables) {
      const info = await this.catalog.prepare(req.workspaceId, batch)
      const { columns, body } = encodeBatch(batch, info)
      await this.client.insert(this.catalog.ref(req.workspaceId, batch.table), columns, body, {
        timeoutMs: this.opts.insertTimeoutMs,
      })
    }
    return { stored: req.points, duplicate: false }
  }

  tableRef(workspaceId: string, table: string): string | undefined {
    return this.catalog.table(workspaceId, table) && this.catalog.ref(workspaceId, table)
  }

  async query(sql: string, params: QueryParam[] = [], timeoutMs?: number): Promise<Rows> {
    const r = await this.client.query(bindParams(sql, params), {
      timeoutMs: timeoutMs ?? this.opts.queryTimeoutMs,
    })
    return { columns: r.columns, rows: r.rows }
  }

  objects(q: ObjectQuery): Promise<ObjectPage> {
    return clickHouseObjects(this.client, this.catalog, q, this.opts.queryTimeoutMs)
  }

  async retain(cfg: RetentionConfig, nowMs = Date.now()): Promise<SweepResult[]> {
    const overrides = await new ClickHouseRetentionOverrides(this.meta).map()
    const timeoutMs = this.opts.queryTimeoutMs
    return sweepClickHouse(this.client, this.catalog, cfg, overrides, nowMs, timeoutMs)
  }

  /** Lets this process's writes finish; the client's sockets are the caller's to close. */
  async close(): Promise<void> {
    clearInterval(this.refresher)
    await Promise.allSettled([...this.inFlight.values()])
  }
}

/**
 * A write ClickHouse did not take: past its deadline or unanswered it is 503 with
 * `Retry-After` (the agent keeps the body and sends it again), never a 504 the agent might
 * count as final.
 */
function unstored(e: unknown): unknown {
  if (!(e instanceof FerryError)) return e
  if (e.code !== 'queryTimeout' && e.code !== 'storageFailed') return e
  if (e.retryAfter !== undefined && e.code === 'storageFailed') return e
  return new FerryError('storageFailed', `points not stored: ${e.message}`, {
    cause: e,
    retryAfter: UNAVAILABLE_RETRY_AFTER_S,
  })
}
