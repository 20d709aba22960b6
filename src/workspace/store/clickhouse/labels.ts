/**
 * Object labels and RUM env variables on ClickHouse (meta-tables.ts): both small records
 * replaced whole by key, removed by a deleted version.
 */
import { FerryError } from '../../../errors.js'
import { labelId, type LabelRequest } from '../labels.js'
import type { EnvVariableStore, LabelStore } from '../metadata.js'
import { META_TABLES } from './meta-ddl.js'
import type { MetaTables } from './meta-tables.js'

const LABELS = META_TABLES.labels
const ENV = META_TABLES.env_variables

export class ClickHouseLabels implements LabelStore {
  constructor(private readonly t: MetaTables) {}

  async set(ws: string, r: LabelRequest): Promise<string> {
    const id = labelId(ws, r)
    await this.t.put(LABELS, [
      [id, ws, r.object_class, r.object_name, JSON.stringify(r.labels ?? [])],
    ])
    return id
  }

  async delete(ws: string, r: LabelRequest): Promise<void> {
    const id = labelId(ws, r)
    if (!(await this.t.select(LABELS, 'id', 'id = $1', [id])).length)
      throw new FerryError('objectNotFound', 'no labels for that object')
    await this.t.put(LABELS, [[id, ws, r.object_class, r.object_name, '[]']], true)
  }

  async forClass(ws: string, objectClass: string): Promise<Map<string, string[]>> {
    const rows = await this.t.select(
      LABELS,
      'object_name, labels',
      'workspace_id = $1 AND object_class = $2',
      [ws, objectClass],
    )
    const out = new Map<string, string[]>()
    for (const [name, labels] of rows as string[][])
      out.set(name, [...new Set([...(out.get(name) ?? []), ...(JSON.parse(labels) as string[])])])
    return out
  }
}

export class ClickHouseEnvVariables implements EnvVariableStore {
  constructor(private readonly t: MetaTables) {}

  async forApp(workspaceId: string, appId: string): Promise<Record<string, string>> {
    const rows = await this.t.select(
      ENV,
      'key, value',
      "workspace_id = $1 AND app_id IN ('', $2)",
      [workspaceId, appId],
      'ORDER BY app_id, key',
    )
    return Object.fromEntries(rows.map(([k, v]) => [String(k), String(v)]))
  }

  set(workspaceId: string, appId: string, key: string, value: string | null): Promise<void> {
    return this.t.put(ENV, [[workspaceId, appId, key, value ?? '']], value === null)
  }
}
