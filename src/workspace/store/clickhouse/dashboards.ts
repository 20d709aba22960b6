/** Dashboards on ClickHouse (meta-tables.ts): each change a new version of the whole row. */
import crypto from 'node:crypto'
import { FerryError } from '../../../errors.js'
import { toDashboard, type Dashboard, type DashboardInput, type Page } from '../dashboards.js'
import type { DashboardStore } from '../metadata.js'
import { META_TABLES } from './meta-ddl.js'
import type { MetaTables, MetaValue } from './meta-tables.js'

const T = META_TABLES.dashboards
const COLUMNS = 'id, name, `desc`, tags, extend, template, created_at, updated_at, creator, updator'
const MATCH = 'workspace_id = $1 AND positionCaseInsensitiveUTF8(name, $2) > 0'

export class ClickHouseDashboards implements DashboardStore {
  constructor(private readonly t: MetaTables) {}

  async list(ws: string, search: string, offset: number, limit: number): Promise<Page<Dashboard>> {
    const total = await this.t.select(T, 'count()', MATCH, [ws, search])
    const rows = await this.t.select(
      T,
      COLUMNS,
      MATCH,
      [ws, search],
      `ORDER BY created_at DESC, id LIMIT ${Number(offset)}, ${Number(limit)}`,
    )
    return { items: rows.map(toDashboard), total: Number(total[0][0]) }
  }

  async get(ws: string, id: string): Promise<Dashboard> {
    const rows = await this.t.select(T, COLUMNS, 'workspace_id = $1 AND id = $2', [ws, id])
    if (!rows.length) throw new FerryError('objectNotFound', `dashboard ${id} not found`)
    return toDashboard(rows[0])
  }

  private row(ws: string, d: Dashboard, createdMs: number, updatedMs: number): MetaValue[] {
    const json = JSON.stringify
    const texts = [d.uuid, d.name, d.desc, json(d.tags), json(d.extend), json(d.templateInfos)]
    return [ws, ...texts, createdMs, updatedMs, d.creator, d.updator]
  }

  async create(ws: string, input: DashboardInput, by: string): Promise<Dashboard> {
    const now = Date.now()
    const d = fill(`dsbd_${crypto.randomBytes(16).toString('hex')}`, input, by)
    await this.t.put(T, [this.row(ws, d, now, now)])
    return this.get(ws, d.uuid)
  }

  async modify(ws: string, id: string, input: DashboardInput, by: string): Promise<Dashboard> {
    const old = await this.createdAt(ws, id)
    const d = fill(id, { ...old.d, ...defined(input) }, old.d.creator)
    d.updator = by
    await this.t.put(T, [this.row(ws, d, old.ms, Date.now())])
    return this.get(ws, id)
  }

  async delete(ws: string, id: string): Promise<void> {
    const old = await this.createdAt(ws, id)
    await this.t.put(T, [this.row(ws, old.d, old.ms, Date.now())], true)
  }

  /** The stored dashboard and its creation time in ms (the record has seconds). */
  private async createdAt(ws: string, id: string): Promise<{ d: Dashboard; ms: number }> {
    const d = await this.get(ws, id)
    const r = await this.t.select(T, 'created_at', 'workspace_id = $1 AND id = $2', [ws, id])
    return { d, ms: Number(r[0][0]) }
  }
}

function defined(input: DashboardInput): DashboardInput {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined))
}

function fill(id: string, input: DashboardInput, by: string): Dashboard {
  return {
    uuid: id,
    name: input.name ?? '',
    desc: input.desc ?? '',
    tags: input.tags ?? [],
    extend: input.extend ?? {},
    templateInfos: input.templateInfos ?? {},
    createAt: 0,
    updateAt: 0,
    creator: by,
    updator: by,
  }
}
