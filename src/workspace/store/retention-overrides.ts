/**
 * Retention overrides: how long one workspace keeps one category's rows, in place of the global
 * `[workspace] retention_*` key of that category. At most one per (workspace id, category);
 * `keepMs` 0 keeps the rows forever. Callers validate the category and the duration; this
 * module only stores them (writes through the write connection, like every meta change).
 */
import { isCategory, type Category } from '../../shared/category.js'
import type { Db } from './db.js'
import type { RetentionOverride, OverrideMap } from './records.js'
import type { RetentionOverrideStore } from './metadata.js'

export type { RetentionOverride, OverrideMap } from './records.js'

export class RetentionOverrides implements RetentionOverrideStore {
  constructor(private readonly db: Db) {}

  /** Sets (or replaces) the retention of `category` in the workspace. */
  set(workspaceId: string, category: Category, keepMs: number): Promise<void> {
    return this.db.execute('INSERT OR REPLACE INTO meta.retention_overrides VALUES ($1, $2, $3)', [
      workspaceId,
      category,
      keepMs,
    ])
  }

  /** Removes the override; false when there was none. */
  clear(workspaceId: string, category: Category): Promise<boolean> {
    return this.db.exclusive(async (con) => {
      const r = await con.run(
        'DELETE FROM meta.retention_overrides WHERE workspace_id = $1 AND category = $2',
        [workspaceId, category],
      )
      return r.rowsChanged > 0
    })
  }

  /** Every override, or one workspace's, ordered by workspace id and category. */
  async list(workspaceId?: string): Promise<RetentionOverride[]> {
    const where = workspaceId === undefined ? '' : 'WHERE workspace_id = $1'
    const r = await this.db.query(
      `SELECT workspace_id, category, keep_ms FROM meta.retention_overrides ${where}
       ORDER BY workspace_id, category`,
      workspaceId === undefined ? [] : [workspaceId],
    )
    const out: RetentionOverride[] = []
    for (const [w, c, k] of r.rows) {
      // A row naming no known category (written by a newer version) is not applied.
      if (isCategory(String(c)))
        out.push({ workspaceId: String(w), category: String(c) as Category, keepMs: Number(k) })
    }
    return out
  }

  async map(): Promise<OverrideMap> {
    return overrideMap(await this.list())
  }
}

/** Overrides grouped by workspace id, then category. */
export function overrideMap(list: RetentionOverride[]): OverrideMap {
  const out: OverrideMap = new Map()
  for (const o of list) {
    let m = out.get(o.workspaceId)
    if (!m) out.set(o.workspaceId, (m = new Map()))
    m.set(o.category, o.keepMs)
  }
  return out
}
