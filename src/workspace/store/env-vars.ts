/**
 * RUM variables (`GET /v1/env_variable?app_id=`, which the agent forwards for the browser SDK):
 * per workspace, for one application or for all (app_id ''); an application's own value wins.
 */
import type { Db } from './db.js'
import type { EnvVariableStore } from './metadata.js'

export class EnvVariables implements EnvVariableStore {
  constructor(private readonly db: Db) {}

  async forApp(workspaceId: string, appId: string): Promise<Record<string, string>> {
    const r = await this.db.query(
      `SELECT key, value FROM meta.env_variables WHERE workspace_id = $1 AND app_id IN ('', $2)
       ORDER BY app_id, key`,
      [workspaceId, appId],
    )
    return Object.fromEntries(r.rows.map(([k, v]) => [String(k), String(v)]))
  }

  /** Sets (or with null, removes) one variable. */
  set(workspaceId: string, appId: string, key: string, value: string | null): Promise<void> {
    return this.db.exclusive(async (con) => {
      await con.run(
        'DELETE FROM meta.env_variables WHERE workspace_id = $1 AND app_id = $2 AND key = $3',
        [workspaceId, appId, key],
      )
      if (value !== null)
        await con.run('INSERT INTO meta.env_variables VALUES ($1, $2, $3, $4)', [
          workspaceId,
          appId,
          key,
          value,
        ])
    })
  }
}
