/**
 * Session replay segments on ClickHouse (meta-tables.ts), bounded per workspace like the DuckDB
 * store: after each store the newest segments are summed and those past `maxBytes` get a
 * deleted version. Two processes trimming at once write the same tombstones (harmless).
 */
import crypto from 'node:crypto'
import type { ReplayStore } from '../metadata.js'
import { replayColumns, replayRow, type ReplayInfo, type ReplayInput } from '../replays.js'
import { META_TABLES } from './meta-ddl.js'
import type { MetaTables } from './meta-tables.js'

const T = META_TABLES.replays
const BLANK = ['', '', '', 0, 0, 0, 0, '', '']

export class ClickHouseReplays implements ReplayStore {
  constructor(
    private readonly t: MetaTables,
    private readonly maxBytes: number,
  ) {}

  async store(workspaceId: string, r: ReplayInput): Promise<string> {
    const id = `replay_${crypto.randomUUID().replaceAll('-', '')}`
    await this.t.put(T, [[workspaceId, id, ...replayColumns(r), r.segment]])
    await this.trim(workspaceId)
    return id
  }

  private async trim(workspaceId: string): Promise<void> {
    const rows = await this.t.select(
      T,
      'id, size',
      'workspace_id = $1',
      [workspaceId],
      'ORDER BY received_at DESC, id DESC',
    )
    let total = 0
    const gone: string[] = []
    for (const [id, size] of rows)
      if ((total += Number(size)) > this.maxBytes) gone.push(String(id))
    if (gone.length)
      await this.t.put(
        T,
        gone.map((id) => [workspaceId, id, ...BLANK]),
        true,
      )
  }

  async list(workspaceId: string, offset: number, limit: number): Promise<ReplayInfo[]> {
    const rows = await this.t.select(
      T,
      'id, app_id, session_id, view_id, start_ms, end_ms, received_at, size, fields',
      'workspace_id = $1',
      [workspaceId],
      `ORDER BY received_at DESC, id LIMIT ${Number(offset)}, ${Number(limit)}`,
    )
    return rows.map(replayRow)
  }
}
