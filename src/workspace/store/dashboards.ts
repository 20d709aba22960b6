/**
 * Dashboards of a workspace. A dashboard is a name, a description, tags, a free JSON `extend`
 * and a JSON `template` (the panels), with creation and update times and the API key that
 * made each change. Ids are `dsbd_` + 32 hex.
 */
import crypto from 'node:crypto'
import { FerryError } from '../../errors.js'
import type { Db } from './db.js'
import type { DashboardStore } from './metadata.js'

export interface Dashboard {
  uuid: string
  name: string
  desc: string
  tags: string[]
  extend: Record<string, unknown>
  templateInfos: Record<string, unknown>
  createAt: number
  updateAt: number
  creator: string
  updator: string
}

export interface DashboardInput {
  name?: string
  desc?: string
  tags?: string[]
  extend?: Record<string, unknown>
  templateInfos?: Record<string, unknown>
}

export interface Page<T> {
  items: T[]
  total: number
}

const COLUMNS = 'id, name, "desc", tags, extend, template, created_at, updated_at, creator, updator'

export function toDashboard(r: unknown[]): Dashboard {
  return {
    uuid: String(r[0]),
    name: String(r[1]),
    desc: String(r[2]),
    tags: JSON.parse(String(r[3])) as string[],
    extend: JSON.parse(String(r[4])) as Record<string, unknown>,
    templateInfos: JSON.parse(String(r[5])) as Record<string, unknown>,
    // Seconds, as the hosted service reports them.
    createAt: Math.floor(Number(r[6]) / 1000),
    updateAt: Math.floor(Number(r[7]) / 1000),
    creator: String(r[8]),
    updator: String(r[9]),
  }
}

export class Dashboards implements DashboardStore {
  constructor(private readonly db: Db) {}

  async list(ws: string, search: string, offset: number, limit: number): Promise<Page<Dashboard>> {
    const where = 'workspace_id = $1 AND contains(lower(name), lower($2))'
    const total = await this.db.query(`SELECT count(*) FROM meta.dashboards WHERE ${where}`, [
      ws,
      search,
    ])
    const r = await this.db.query(
      `SELECT ${COLUMNS} FROM meta.dashboards WHERE ${where} ORDER BY created_at DESC, id LIMIT $3 OFFSET $4`,
      [ws, search, limit, offset],
    )
    return { items: r.rows.map(toDashboard), total: Number(total.rows[0][0]) }
  }

  async get(ws: string, id: string): Promise<Dashboard> {
    const r = await this.db.query(
      `SELECT ${COLUMNS} FROM meta.dashboards WHERE workspace_id = $1 AND id = $2`,
      [ws, id],
    )
    if (!r.rows.length) throw new FerryError('objectNotFound', `dashboard ${id} not found`)
    return toDashboard(r.rows[0])
  }

  async create(ws: string, input: DashboardInput, by: string): Promise<Dashboard> {
    const id = `dsbd_${crypto.randomBytes(16).toString('hex')}`
    const now = Date.now()
    await this.db.execute(
      'INSERT INTO meta.dashboards VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $9)',
      [
        id,
        ws,
        input.name ?? '',
        input.desc ?? '',
        JSON.stringify(input.tags ?? []),
        JSON.stringify(input.extend ?? {}),
        JSON.stringify(input.templateInfos ?? {}),
        now,
        by,
      ],
    )
    return this.get(ws, id)
  }

  /** Changes only the fields given. */
  async modify(ws: string, id: string, input: DashboardInput, by: string): Promise<Dashboard> {
    const old = await this.get(ws, id)
    await this.db.execute(
      `UPDATE meta.dashboards SET name = $3, "desc" = $4, tags = $5, extend = $6, template = $7,
       updated_at = $8, updator = $9 WHERE workspace_id = $1 AND id = $2`,
      [
        ws,
        id,
        input.name ?? old.name,
        input.desc ?? old.desc,
        JSON.stringify(input.tags ?? old.tags),
        JSON.stringify(input.extend ?? old.extend),
        JSON.stringify(input.templateInfos ?? old.templateInfos),
        Date.now(),
        by,
      ],
    )
    return this.get(ws, id)
  }

  async delete(ws: string, id: string): Promise<void> {
    await this.get(ws, id)
    await this.db.execute('DELETE FROM meta.dashboards WHERE workspace_id = $1 AND id = $2', [
      ws,
      id,
    ])
  }
}
