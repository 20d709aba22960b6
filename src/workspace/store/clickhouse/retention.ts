/**
 * Retention on ClickHouse: whole day partitions dropped once their last day is older than the
 * category's retention (a DELETE is an asynchronous mutation rewriting parts). A day is dropped
 * only when all of it is past the cutoff, so rows live up to a day longer than their retention,
 * never shorter. The rows of each dropped partition are counted from `system.parts` first (of
 * every shard, on a cluster: layout.ts).
 * On a single server with table TTL (19.6 and later; `ttl` given) each table's TTL is also set to
 * its retention (ttl.ts), so rows expire to the second as parts merge; the days dropped here are
 * still dropped at once and counted (TTL deletions are not counted: the server does them).
 * 18.16 has no TTL, and a cluster uses none: dropped days are all there is.
 * A metric table in the series layout drops the same days of its series rows (a series row's
 * day is a day its points have), not counted: the rows counted are points. With TTL only the
 * points expire early; their series rows go with the day.
 */
import type { Category } from '../../../shared/category.js'
import type { OverrideMap } from '../retention-overrides.js'
import { categoryOf, retentionFor, type RetentionConfig, type SweepResult } from '../retention.js'
import type { ClickHouseCatalog } from './catalog.js'
import type { ClickHouseClient } from './client.js'
import { bindParams } from './sql.js'
import type { TableTtl } from './ttl.js'

const DAY_MS = 86_400_000

export async function sweepClickHouse(
  client: ClickHouseClient,
  catalog: ClickHouseCatalog,
  cfg: RetentionConfig,
  overrides: OverrideMap,
  nowMs: number,
  timeoutMs: number,
  ttl: TableTtl | null,
): Promise<SweepResult[]> {
  const out = new Map<string, SweepResult>()
  for (const { workspace, table } of catalog.allTables()) {
    const category = categoryOf(table)
    if (!category) continue
    const keep = retentionFor(cfg, overrides, workspace, category)
    const db = catalog.database(workspace)
    await ttl?.apply(db, table, catalog.pointsRef(workspace, table), keep)
    if (keep <= 0) continue
    const rows = await dropBefore(client, catalog, db, table, nowMs - keep, timeoutMs)
    if (rows > 0) add(out, workspace, category, rows)
    if (catalog.table(workspace, table)?.parts) {
      const seriesDb = catalog.seriesDatabase(workspace)
      await dropBefore(client, catalog, seriesDb, table, nowMs - keep, timeoutMs)
    }
  }
  return [...out.values()]
}

function add(out: Map<string, SweepResult>, workspace: string, category: Category, rows: number) {
  const key = `${workspace}\u0000${category}`
  const r = out.get(key) ?? { workspace, category, rows: 0 }
  r.rows += rows
  out.set(key, r)
}

async function dropBefore(
  client: ClickHouseClient,
  catalog: ClickHouseCatalog,
  db: string,
  table: string,
  cutoffMs: number,
  timeoutMs: number,
): Promise<number> {
  const o = { timeoutMs }
  const parts = await client.query(
    bindParams(
      `SELECT partition, sum(rows) FROM ${catalog.layout.parts} WHERE database = $1
       AND table = $2 AND active GROUP BY partition`,
      [catalog.layout.local(db), table],
    ),
    o,
  )
  let rows = 0
  for (const [quoted, n] of parts.rows as [string, bigint][]) {
    // The partition is a day (YYYY-MM-DD); all of it is older than the cutoff at its end.
    const day = quoted.replaceAll("'", '')
    const end = Date.parse(`${day}T00:00:00Z`) + DAY_MS
    if (!(end <= cutoffMs)) continue
    await catalog.layout.dropPartition(db, table, day)
    rows += Number(n)
  }
  return rows
}
