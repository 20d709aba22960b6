/**
 * One transaction of the writer: skips the bodies dedupe.ts judges duplicates, appends the
 * others' column batches and records their ids and fingerprints, then commits. After a failure everything is
 * rolled back, the catalog mirror reloaded and the series dictionaries dropped, so memory
 * never describes what was undone.
 */
import type { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api'
import type { Category } from '../../shared/category.js'
import type { TableBatch } from '../ingest/columns.js'
import type { Catalog, TableInfo } from './catalog.js'
import { schemaName } from './names.js'
import { DedupeJudge, dedupeQueries } from './dedupe.js'
import { findPackages, recordPackages, type PackageRecord } from './packages.js'
import { appendBatch, appendColumns } from './rows.js'
import type { SeriesIndex } from './series.js'
import type { WriteRequest, WriteResult } from './write-request.js'

export interface StoreContext {
  catalog: Catalog
  series: SeriesIndex
  /** Categories whose new tables take the series layout (series-layout.ts). */
  seriesCategories: ReadonlySet<Category>
  /** Bodies with a stored body's fingerprint are duplicates whatever their id (dedupe.ts). */
  dedupeByContent: boolean
}

export async function commitBatch(
  con: DuckDBConnection,
  ctx: StoreContext,
  batch: WriteRequest[],
  prune: (con: DuckDBConnection) => Promise<void>,
): Promise<WriteResult[]> {
  await con.run('BEGIN TRANSACTION')
  try {
    const results: WriteResult[] = []
    const found = await findPackages(con, dedupeQueries(batch, ctx.dedupeByContent))
    const judge = new DedupeJudge(found, ctx.dedupeByContent)
    const stored: PackageRecord[] = []
    for (const req of batch) {
      const v = judge.judge(req)
      if (!v.store) {
        results.push({ stored: 0, duplicate: true, dedupe: v.by })
        continue
      }
      const rec = judge.stored(req)
      if (rec) stored.push(rec)
      await store(con, ctx, req)
      const r: WriteResult = { stored: req.points, duplicate: false }
      results.push(v.reusedId ? { ...r, reusedId: true } : r)
    }
    await recordPackages(con, stored)
    await prune(con)
    await con.run('COMMIT')
    ctx.catalog.publish()
    return results
  } catch (e) {
    await con.run('ROLLBACK').catch(() => undefined)
    ctx.series.reset()
    await ctx.catalog.load(async (sql) => (await con.runAndReadAll(sql)).getRows())
    throw e
  }
}

async function withAppender(
  con: DuckDBConnection,
  ws: string,
  table: string,
  fn: (app: DuckDBAppender) => void,
): Promise<void> {
  const app = await con.createAppender(table, schemaName(ws))
  try {
    fn(app)
    app.flushSync()
  } finally {
    app.closeSync()
  }
}

/** A batch of a table in the series layout: its new series, then its points. */
async function storeSeries(
  con: DuckDBConnection,
  ctx: StoreContext,
  ws: string,
  info: TableInfo,
  batch: TableBatch,
): Promise<void> {
  const parts = info.parts!
  const { tags, sids, fresh } = await ctx.series.split(con, ws, info, batch)
  if (fresh.rows > 0)
    await withAppender(con, ws, parts.series, (a) => appendColumns(a, [fresh.sids], tags, fresh))
  const fields = info.columns.filter((c) => c.kind === 'field')
  const rows = batch.time.length
  await withAppender(con, ws, parts.points, (a) =>
    appendColumns(a, [batch.time, sids], fields, { ...batch, rows }),
  )
}

async function store(con: DuckDBConnection, ctx: StoreContext, req: WriteRequest): Promise<void> {
  const ws = req.workspaceId
  const series = ctx.seriesCategories.has(req.category)
  for (const batch of req.tables) {
    const info = await ctx.catalog.ensure(con, ws, batch.table, batch.columns, series)
    if (info.parts) await storeSeries(con, ctx, ws, info, batch)
    else await withAppender(con, ws, info.phys, (a) => appendBatch(a, info.columns, batch))
  }
}
