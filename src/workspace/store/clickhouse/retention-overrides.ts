/** Retention overrides on ClickHouse (meta-tables.ts), one live row per workspace and category. */
import { isCategory, type Category } from '../../../shared/category.js'
import type { RetentionOverrideStore } from '../metadata.js'
import { overrideMap, type OverrideMap, type RetentionOverride } from '../retention-overrides.js'
import { META_TABLES } from './meta-ddl.js'
import type { MetaTables } from './meta-tables.js'

const T = META_TABLES.retention_overrides

export class ClickHouseRetentionOverrides implements RetentionOverrideStore {
  constructor(private readonly t: MetaTables) {}

  set(workspaceId: string, category: Category, keepMs: number): Promise<void> {
    return this.t.put(T, [[workspaceId, category, keepMs]])
  }

  async clear(workspaceId: string, category: Category): Promise<boolean> {
    const where = 'workspace_id = $1 AND category = $2'
    if (!(await this.t.select(T, 'keep_ms', where, [workspaceId, category])).length) return false
    await this.t.put(T, [[workspaceId, category, 0]], true)
    return true
  }

  async list(workspaceId?: string): Promise<RetentionOverride[]> {
    const rows = await this.t.select(
      T,
      'workspace_id, category, keep_ms',
      workspaceId === undefined ? '' : 'workspace_id = $1',
      workspaceId === undefined ? [] : [workspaceId],
      'ORDER BY workspace_id, category',
    )
    const out: RetentionOverride[] = []
    for (const [w, c, k] of rows)
      if (isCategory(String(c)))
        out.push({ workspaceId: String(w), category: String(c) as Category, keepMs: Number(k) })
    return out
  }

  async map(): Promise<OverrideMap> {
    return overrideMap(await this.list())
  }
}
