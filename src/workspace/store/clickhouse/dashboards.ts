/**
 * Dashboards and notes on ClickHouse (meta-tables.ts): each change a new version of the whole
 * row. The documented integer id (`num`) is the creating process's clock in µs (no sequence is
 * shared between processes). A dashboard's name is checked free before it is written; two
 * processes naming two dashboards alike in the same instant can both succeed (no transaction
 * spans the check and the write here). Tag filters run on the rows of the name search, in
 * memory (a workspace has few dashboards; 18.16 cannot read JSON arrays).
 */
import crypto from 'node:crypto'
import { FerryError } from '../../../errors.js'
import {
  attrsOf,
  toDashboard,
  type Dashboard,
  type DashboardFilter,
  type DashboardInput,
} from '../dashboards.js'
import type { DashboardStore } from '../metadata.js'
import { META_TABLES } from './meta-ddl.js'
import type { MetaTables } from './meta-tables.js'

const T = META_TABLES.dashboards
const COLUMNS =
  'id, num, workspace_id, name, `desc`, tags, extend, template, attrs, created_at, updated_at, creator, updator'
const json = JSON.stringify
let lastNum = 0

/** A documented integer id: µs of the clock, above every earlier one of this process. */
export function nextNum(): number {
  lastNum = Math.max(Date.now() * 1000, lastNum + 1)
  return lastNum
}

export class ClickHouseDashboards implements DashboardStore {
  constructor(private readonly t: MetaTables) {}

  async list(ws: string, f: DashboardFilter, offset: number, limit: number) {
    const rows = await this.t.select(
      T,
      COLUMNS,
      'workspace_id = $1 AND positionCaseInsensitiveUTF8(name, $2) > 0',
      [ws, f.search],
      'ORDER BY updated_at DESC, id',
    )
    const all = rows
      .map(toDashboard)
      .filter((d) => !f.tagNames.length || d.tagNames.some((t) => f.tagNames.includes(t)))
    return { items: all.slice(offset, offset + limit), total: all.length }
  }

  async get(ws: string, id: string): Promise<Dashboard> {
    const rows = await this.t.select(T, COLUMNS, 'workspace_id = $1 AND id = $2', [ws, id])
    if (!rows.length) throw new FerryError('objectNotFound', `dashboard ${id} not found`)
    return toDashboard(rows[0])
  }

  private async nameFree(ws: string, name: string, self: string): Promise<void> {
    const where = 'workspace_id = $1 AND name = $2 AND id != $3'
    if ((await this.t.select(T, 'id', where, [ws, name, self])).length)
      throw new FerryError('duplicateName', `a dashboard named ${JSON.stringify(name)} exists`)
  }

  private async put(ws: string, d: Dashboard, createdMs: number, deleted = false) {
    const texts = [d.name, d.desc, json(d.tagNames), json(d.extend), json(d.templateInfo)]
    const row = [ws, d.uuid, d.num ?? 0, ...texts, attrsOf(d), createdMs, Date.now()]
    await this.t.put(T, [[...row, d.creator, d.updator]], deleted)
  }

  async create(ws: string, input: DashboardInput, by: string): Promise<Dashboard> {
    const id = input.uuid ?? `dsbd_${crypto.randomBytes(16).toString('hex')}`
    if ((await this.t.select(T, 'id', 'id = $1', [id])).length)
      throw new FerryError('duplicateName', `a dashboard with the id ${id} exists`)
    await this.nameFree(ws, input.name ?? '', id)
    const texts = [
      json(input.tagNames ?? []),
      json(input.extend ?? {}),
      json(input.templateInfo ?? {}),
    ]
    const row: unknown[] = [id, nextNum(), ws, input.name ?? '', input.desc ?? '', ...texts]
    const d = toDashboard([...row, attrsOf(input), 0, 0, by, by])
    await this.put(ws, d, Date.now())
    return this.get(ws, id)
  }

  async modify(ws: string, id: string, input: DashboardInput, by: string): Promise<Dashboard> {
    const old = await this.get(ws, id)
    const next = { ...old, ...input, updator: by }
    if (next.name !== old.name) await this.nameFree(ws, next.name, id)
    await this.put(ws, next, await this.createdMs(ws, id))
    return this.get(ws, id)
  }

  async delete(ws: string, id: string): Promise<Dashboard> {
    const old = await this.get(ws, id)
    await this.put(ws, old, await this.createdMs(ws, id), true)
    return old
  }

  private async createdMs(ws: string, id: string): Promise<number> {
    const r = await this.t.select(T, 'created_at', 'workspace_id = $1 AND id = $2', [ws, id])
    return Number(r[0][0])
  }
}
