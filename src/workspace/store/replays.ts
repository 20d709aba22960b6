/**
 * Session replay segments (`POST /v1/write/rum/replay`, multipart with a `segment` file and
 * text fields): stored as uploaded, per workspace, the oldest dropped once a workspace holds
 * more than `maxBytes`, so replays never take the disk from the points.
 */
import crypto from 'node:crypto'
import { DuckDBBlobValue } from '@duckdb/node-api'
import type { Db } from './db.js'
import type { ReplayInput, ReplayInfo } from './records.js'
import type { ReplayStore } from './metadata.js'

export type { ReplayInput, ReplayInfo } from './records.js'

export const num = (v: string | undefined) => (v !== undefined && /^\d+$/.test(v) ? Number(v) : 0)

/** A segment's columns from app_id to fields, in the order both stores keep them. */
export function replayColumns(r: ReplayInput): (string | number)[] {
  const f = r.fields
  const ids = [f.app_id ?? '', f.session_id ?? '', f.view_id ?? '']
  return [...ids, num(f.start), num(f.end), Date.now(), r.segment.length, JSON.stringify(f)]
}

export class Replays implements ReplayStore {
  constructor(
    private readonly db: Db,
    private readonly maxBytes: number,
  ) {}

  store(workspaceId: string, r: ReplayInput): Promise<string> {
    const id = `replay_${crypto.randomUUID().replaceAll('-', '')}`
    return this.db.exclusive(async (con) => {
      await con.run(
        'INSERT INTO meta.replays VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)',
        [id, workspaceId, ...replayColumns(r), new DuckDBBlobValue(r.segment)],
      )
      await con.run(
        `DELETE FROM meta.replays WHERE id IN (SELECT id FROM (SELECT id, sum(size) OVER
         (ORDER BY received_at DESC, id DESC) AS total FROM meta.replays WHERE workspace_id = $1)
         WHERE total > $2)`,
        [workspaceId, this.maxBytes],
      )
      return id
    })
  }

  async list(workspaceId: string, offset: number, limit: number): Promise<ReplayInfo[]> {
    const r = await this.db.query(
      `SELECT id, app_id, session_id, view_id, start_ms, end_ms, received_at, size, fields
       FROM meta.replays WHERE workspace_id = $1 ORDER BY received_at DESC, id
       LIMIT ${limit} OFFSET ${offset}`,
      [workspaceId],
    )
    return r.rows.map(replayRow)
  }
}

/** A listed replay from its row (id, app, session, view, start, end, received, size, fields). */
export function replayRow(row: unknown[]): ReplayInfo {
  return {
    id: String(row[0]),
    app_id: String(row[1]),
    session_id: String(row[2]),
    view_id: String(row[3]),
    start: Number(row[4]),
    end: Number(row[5]),
    received_at: Number(row[6]),
    size: Number(row[7]),
    fields: JSON.parse(String(row[8])) as Record<string, string>,
  }
}
