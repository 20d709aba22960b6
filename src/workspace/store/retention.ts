/**
 * Retention: deletes the rows of every point table of every workspace older than their
 * category's retention (by the `time` column, nanoseconds): the workspace's own retention of
 * that category when it has one (retention-overrides.ts, read once per sweep), else the global
 * key. The deletes go through the write
 * connection one table at a time, so ingest waits at most one table's delete, never a sweep.
 * In the series layout the points go first, then, in the same transaction, the series no point
 * refers to any more, and the writer's series dictionaries are dropped (`seriesDeleted`).
 */
import { isCategory, type Category } from '../../shared/category.js'
import type { WorkspaceConfig } from '../../config/schema.js'
import type { Catalog } from './catalog.js'
import type { Db } from './db.js'
import { RetentionOverrides, type OverrideMap } from './retention-overrides.js'
import { ident, NAMESPACES, qualified, TIME_COLUMN } from './names.js'
import { SID_COLUMN, type SeriesParts } from './series-layout.js'

export type RetentionConfig = Pick<
  WorkspaceConfig,
  'retention_metric' | 'retention_logging' | 'retention_default'
>

/** Rows deleted by one sweep, by workspace id and category (only non-zero entries). */
export interface SweepResult {
  workspace: string
  category: Category
  rows: number
}

/** The retention in ms of a category; 0 keeps its rows forever. */
export function retentionOf(cfg: RetentionConfig, category: Category): number {
  if (category === 'metric') return cfg.retention_metric
  if (category === 'logging') return cfg.retention_logging
  return cfg.retention_default
}

/** The retention in ms of a category in one workspace: its override, else the global key. */
export function retentionFor(
  cfg: RetentionConfig,
  overrides: OverrideMap,
  workspace: string,
  category: Category,
): number {
  return overrides.get(workspace)?.get(category) ?? retentionOf(cfg, category)
}

/** The category of a table named `<short>::<measurement>`. */
export function categoryOf(table: string): Category | null {
  const short = table.slice(0, table.indexOf('::'))
  const c = NAMESPACES[short]
  return c && isCategory(c) ? c : null
}

/** Deletes one table's rows before `cutoff`; in the series layout, then its unused series. */
function deleteOld(
  db: Db,
  workspace: string,
  phys: string,
  parts: SeriesParts | null,
  cutoff: bigint,
  seriesDeleted: () => void,
): Promise<number> {
  const points = qualified(workspace, parts ? parts.points : phys)
  const sql = `DELETE FROM ${points} WHERE ${ident(TIME_COLUMN)} < $1`
  return db.exclusive(async (con) => {
    const rows = (await con.run(sql, [cutoff])).rowsChanged
    if (!parts || rows === 0) return rows
    const sid = ident(SID_COLUMN)
    await con.run(
      `DELETE FROM ${qualified(workspace, parts.series)} WHERE ${sid} NOT IN (SELECT DISTINCT ${sid} FROM ${points})`,
    )
    seriesDeleted()
    return rows
  })
}

export async function sweep(
  db: Db,
  catalog: Catalog,
  cfg: RetentionConfig,
  nowMs = Date.now(),
  seriesDeleted: () => void = () => undefined,
): Promise<SweepResult[]> {
  const out = new Map<string, SweepResult>()
  const overrides = await new RetentionOverrides(db).map()
  for (const { workspace, table, phys, parts } of catalog.allTables()) {
    const category = categoryOf(table)
    if (!category) continue
    const keep = retentionFor(cfg, overrides, workspace, category)
    if (keep <= 0) continue
    const cutoff = BigInt(nowMs - keep) * 1_000_000n
    const rows = await deleteOld(db, workspace, phys, parts, cutoff, seriesDeleted)
    if (rows === 0) continue
    const key = `${workspace}\u0000${category}`
    const r = out.get(key) ?? { workspace, category, rows: 0 }
    r.rows += rows
    out.set(key, r)
  }
  return [...out.values()]
}
