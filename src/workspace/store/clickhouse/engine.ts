/**
 * The ClickHouse storage engine (StorageEngine, ../engine.ts): points in one database per
 * workspace (catalog.ts), one RowBinary INSERT per table of a body (insert.ts), package ids in
 * `<prefix>_meta.packages`, retention by dropping day partitions (retention.ts). Many
 * processes may run it over one ClickHouse: it keeps only caches. The server's version is read
 * at open (server-version.ts): where it has table TTL, retention sets it too (ttl.ts).
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
import { DedupeJudge } from '../dedupe.js'
import type { PackageRecord } from '../packages.js'
import type { Rows } from '../db.js'
import type { QueryParam, StorageEngine } from '../engine.js'
import type { ObjectPage, ObjectQuery } from '../objects.js'
import type { RetentionConfig, SweepResult } from '../retention.js'
import type { WriteRequest, WriteResult } from '../write-request.js'
import { ClickHouseCatalog } from './catalog.js'
import { unstored } from './errors.js'
import type { ClickHouseClient } from './client.js'
import { SERIES_CACHE_ROWS, type ClickHouseEngineOptions } from './engine-options.js'
import type { DdlWaitListener } from './layout-types.js'
import { TableLayout } from './layout.js'
import { PackageLog } from './package-log.js'
import type { ResidualListener } from './residual.js'
import { MetaTables } from './meta-tables.js'
import { clickHouseObjects } from './objects.js'
import { sweepClickHouse } from './retention.js'
import { ClickHouseRetentionOverrides } from './retention-overrides.js'
import { SeriesSeen } from './series-insert.js'
import { detectFeatures, type ServerFeatures } from './server-version.js'
import { bindParams } from './sql.js'
import { storeBody } from './store-body.js'
import { TableTtl } from './ttl.js'

/** How soon a table or column made by another process is known to this one's queries. */
export const CATALOG_REFRESH_MS = 2_000

export class ClickHouseEngine implements StorageEngine {
  readonly dialect = 'clickhouse'
  private pending = 0
  private readonly inFlight = new Map<string, Promise<WriteResult>>()
  private readonly refresher: NodeJS.Timeout
  private residual: ResidualListener = () => undefined
  private readonly packages: PackageLog
  private readonly ttl: TableTtl | null
  /** Series rows this process wrote (series-insert.ts). */
  private readonly seen: SeriesSeen

  private constructor(
    private readonly client: ClickHouseClient,
    private readonly meta: MetaTables,
    readonly catalog: ClickHouseCatalog,
    private readonly opts: ClickHouseEngineOptions,
    readonly features: ServerFeatures,
  ) {
    // On a cluster the TTL would belong on every local table: days are dropped there instead.
    this.ttl = features.ttl && !opts.cluster ? new TableTtl(client, opts.queryTimeoutMs) : null
    this.refresher = setInterval(
      () => void this.catalog.refresh().catch(() => undefined),
      CATALOG_REFRESH_MS,
    )
    this.refresher.unref()
    this.packages = new PackageLog(meta, opts.dedupeWindowMs)
    this.seen = new SeriesSeen(opts.seriesCacheRows ?? SERIES_CACHE_ROWS)
  }

  static async open(
    client: ClickHouseClient,
    o: ClickHouseEngineOptions,
  ): Promise<ClickHouseEngine> {
    const layout = new TableLayout(client, o.cluster ?? null, o.queryTimeoutMs, o.ddlWaitMs)
    const meta = new MetaTables(client, `${o.prefix}_meta`, o.queryTimeoutMs, layout)
    await meta.create()
    const db = (ws: string) => `${o.prefix}_w_${ws.replace(/^wksp_/, '')}`
    const catalog = new ClickHouseCatalog(meta, layout, db)
    await catalog.load()
    const features = await detectFeatures(client, o.queryTimeoutMs)
    return new ClickHouseEngine(client, meta, catalog, o, features)
  }

  /** Told of each body a re-send may store twice (residual.ts). */
  onResidual(listener: ResidualListener): void {
    this.residual = listener
  }

  /** Told of each table or column not made on every node within the DDL wait (layout.ts). */
  onDdlUnfinished(listener: DdlWaitListener): void {
    this.catalog.layout.onUnfinished = listener
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
    const judge = new DedupeJudge(await this.packages.seen(req, byContent), byContent)
    const verdict = judge.judge(req)
    if (!verdict.store) return { stored: 0, duplicate: true, dedupe: verdict.by }
    const r = await storeBody(this.client, this.catalog, this.seen, req, {
      timeoutMs: this.opts.insertTimeoutMs,
      residual: (kind, r, message) => this.residual(kind, r, message),
    })
    const rec = judge.stored(req)
    if (rec) await this.record(rec, req)
    return verdict.reusedId ? { ...r, reusedId: true } : r
  }

  /**
   * The body's rows are stored: it is answered stored whatever happens here. A record that
   * fails leaves the body open to being stored again if it is sent again (the residual case).
   */
  private async record(rec: PackageRecord, req: WriteRequest): Promise<void> {
    try {
      await this.packages.put(rec)
    } catch (e) {
      this.residual('unrecorded', req, (e as Error).message)
    }
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
    const { client, catalog, ttl } = this
    const swept = await sweepClickHouse(client, catalog, cfg, overrides, nowMs, timeoutMs, ttl)
    if (swept.length) this.seen.clear()
    return swept
  }

  /** Lets this process's writes finish; the client's sockets are the caller's to close. */
  async close(): Promise<void> {
    clearInterval(this.refresher)
    await Promise.allSettled([...this.inFlight.values()])
  }
}
