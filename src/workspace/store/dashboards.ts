/**
 * Dashboards of a workspace as the Open API documents them: a name unique in its workspace,
 * `desc`, tag names, a free JSON `extend`, the template (`templateInfo`, kept whole), the
 * variable mapping, an identifier and the visibility settings, with times and the API key id
 * of each change. Ids are `dsbd_` + 32 hex or the `dsbd_custom_` id a client asked for; `num`
 * is the documented integer `id` (null for dashboards made before it existed). Every statement
 * of this entity is here, so a second metadata store maps it function for function; checks
 * that span rows (a unique name or id) run with their write in one `exclusive` call.
 */
import crypto from 'node:crypto'
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api'
import { FerryError } from '../../errors.js'
import type { Db } from './db.js'
import type { DashboardAttrs, Dashboard, DashboardInput, DashboardFilter } from './records.js'
import type { DashboardStore } from './metadata.js'

export type { DashboardAttrs, Dashboard, DashboardInput, DashboardFilter } from './records.js'

const DEFAULT_ATTRS: DashboardAttrs = {
  identifier: '',
  mapping: [],
  isPublic: 1,
  permissionSet: [],
  readPermissionSet: [],
  createdWay: 'manual',
}
const ATTR_KEYS = Object.keys(DEFAULT_ATTRS) as (keyof DashboardAttrs)[]

const COLUMNS =
  'id, num, workspace_id, name, "desc", tags, extend, template, attrs, created_at, updated_at, creator, updator'

const json = <T>(v: unknown) => JSON.parse(String(v)) as T

export function toDashboard(r: unknown[]): Dashboard {
  const attrs = r[8] === null ? {} : json<Partial<DashboardAttrs>>(r[8])
  return {
    uuid: String(r[0]),
    num: r[1] === null ? null : Number(r[1]),
    workspaceUUID: String(r[2]),
    name: String(r[3]),
    desc: String(r[4]),
    tagNames: json<string[]>(r[5]),
    extend: json<Record<string, unknown>>(r[6]),
    templateInfo: json<Record<string, unknown>>(r[7]),
    ...DEFAULT_ATTRS,
    ...attrs,
    createAt: Math.floor(Number(r[9]) / 1000),
    updateAt: Math.floor(Number(r[10]) / 1000),
    creator: String(r[11]),
    updator: String(r[12]),
  }
}

export function attrsOf(d: Partial<DashboardAttrs>): string {
  return JSON.stringify(Object.fromEntries(ATTR_KEYS.map((k) => [k, d[k] ?? DEFAULT_ATTRS[k]])))
}

async function rows(con: DuckDBConnection, sql: string, params: DuckDBValue[]) {
  return (await con.runAndReadAll(sql, params)).getRows()
}

/** Refuses a name another dashboard of the workspace has (the documentation forbids twins). */
async function assertNameFree(con: DuckDBConnection, ws: string, name: string, self: string) {
  const r = await rows(
    con,
    'SELECT id FROM meta.dashboards WHERE workspace_id = $1 AND name = $2 AND id <> $3',
    [ws, name, self],
  )
  if (r.length)
    throw new FerryError('duplicateName', `a dashboard named ${JSON.stringify(name)} exists`)
}

export class Dashboards implements DashboardStore {
  constructor(private readonly db: Db) {}

  /** Newest change first (the documented order), then by id so pages never overlap. */
  async list(ws: string, f: DashboardFilter, offset: number, limit: number) {
    const params: DuckDBValue[] = [ws, f.search]
    const tagged = f.tagNames.map(
      (t) => `list_contains(from_json(tags, '["VARCHAR"]'), $${params.push(t)})`,
    )
    let where = 'workspace_id = $1 AND contains(lower(name), lower($2))'
    if (tagged.length) where += ` AND (${tagged.join(' OR ')})`
    const total = await this.db.query(`SELECT count(*) FROM meta.dashboards WHERE ${where}`, params)
    const r = await this.db.query(
      `SELECT ${COLUMNS} FROM meta.dashboards WHERE ${where}
       ORDER BY updated_at DESC, id LIMIT ${limit} OFFSET ${offset}`,
      params,
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

  /** `input.uuid` is the id the client asked for (`specifyDashboardUUID`), else a random one. */
  async create(ws: string, input: DashboardInput, by: string): Promise<Dashboard> {
    const id = input.uuid ?? `dsbd_${crypto.randomBytes(16).toString('hex')}`
    const now = Date.now()
    await this.db.exclusive(async (con) => {
      if ((await rows(con, 'SELECT 1 FROM meta.dashboards WHERE id = $1', [id])).length)
        throw new FerryError('duplicateName', `a dashboard with the id ${id} exists`)
      await assertNameFree(con, ws, input.name ?? '', id)
      await con.run(
        `INSERT INTO meta.dashboards (${COLUMNS}) VALUES
         ($1, nextval('meta.dashboard_num'), $2, $3, $4, $5, $6, $7, $8, $9, $9, $10, $10)`,
        [
          id,
          ws,
          input.name ?? '',
          input.desc ?? '',
          JSON.stringify(input.tagNames ?? []),
          JSON.stringify(input.extend ?? {}),
          JSON.stringify(input.templateInfo ?? {}),
          attrsOf(input),
          now,
          by,
        ],
      )
    })
    return this.get(ws, id)
  }

  /** Changes only the fields given (a list given replaces the stored one whole). */
  async modify(ws: string, id: string, input: DashboardInput, by: string): Promise<Dashboard> {
    await this.db.exclusive(async (con) => {
      const found = await rows(con, `SELECT ${COLUMNS} FROM meta.dashboards WHERE id = $1`, [id])
      const old = found.length ? toDashboard(found[0]) : null
      if (!old || old.workspaceUUID !== ws)
        throw new FerryError('objectNotFound', `dashboard ${id} not found`)
      const next = { ...old, ...input }
      if (next.name !== old.name) await assertNameFree(con, ws, next.name, id)
      await con.run(
        `UPDATE meta.dashboards SET name = $2, "desc" = $3, tags = $4, extend = $5,
         template = $6, attrs = $7, updated_at = $8, updator = $9 WHERE id = $1`,
        [
          id,
          next.name,
          next.desc,
          JSON.stringify(next.tagNames),
          JSON.stringify(next.extend),
          JSON.stringify(next.templateInfo),
          attrsOf(next),
          Date.now(),
          by,
        ],
      )
    })
    return this.get(ws, id)
  }

  /** Returns what was deleted. */
  async delete(ws: string, id: string): Promise<Dashboard> {
    const old = await this.get(ws, id)
    await this.db.execute('DELETE FROM meta.dashboards WHERE workspace_id = $1 AND id = $2', [
      ws,
      id,
    ])
    return old
  }
}
