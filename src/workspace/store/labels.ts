/**
 * Object labels (agent spec 4.2, 4.3): a list of labels attached to the object of a class and
 * name; `key`/`value` are kept as given. One record per (class, name, key, value); posting
 * again replaces its labels.
 */
import crypto from 'node:crypto'
import { FerryError } from '../../errors.js'
import type { Db } from './db.js'
import type { LabelRequest } from './records.js'
import type { LabelStore } from './metadata.js'

export type { LabelRequest } from './records.js'

function str(body: Record<string, unknown>, key: string, required: boolean): string {
  const v = body[key]
  if (v === undefined || v === null) {
    if (required) throw new FerryError('invalidParameter', `${key} is required`)
    return ''
  }
  if (typeof v === 'object') return JSON.stringify(v)
  return String(v)
}

export function parseLabelRequest(body: unknown, withLabels: boolean): LabelRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new FerryError('invalidParameter', 'the body must be a JSON object')
  const b = body as Record<string, unknown>
  const req: LabelRequest = {
    object_class: str(b, 'object_class', true),
    object_name: str(b, 'object_name', true),
    key: str(b, 'key', false),
    value: str(b, 'value', false),
  }
  if (withLabels) {
    const labels = b.labels
    if (!Array.isArray(labels) || !labels.every((l) => typeof l === 'string'))
      throw new FerryError('invalidParameter', 'labels must be an array of strings')
    req.labels = labels
  }
  return req
}

export function labelId(ws: string, r: LabelRequest): string {
  const h = crypto.createHash('sha256')
  for (const part of [ws, r.object_class, r.object_name, r.key, r.value]) h.update(`${part}\0`)
  return `lbl_${h.digest('hex').slice(0, 32)}`
}

export class Labels implements LabelStore {
  constructor(private readonly db: Db) {}

  async set(ws: string, r: LabelRequest): Promise<string> {
    const id = labelId(ws, r)
    await this.db.exclusive(async (con) => {
      await con.run('DELETE FROM meta.labels WHERE id = $1', [id])
      await con.run('INSERT INTO meta.labels VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [
        id,
        ws,
        r.object_class,
        r.object_name,
        r.key,
        r.value,
        JSON.stringify(r.labels ?? []),
        Date.now(),
      ])
    })
    return id
  }

  async delete(ws: string, r: LabelRequest): Promise<void> {
    const id = labelId(ws, r)
    const found = await this.db.query('SELECT 1 FROM meta.labels WHERE id = $1', [id])
    if (!found.rows.length) throw new FerryError('objectNotFound', 'no labels for that object')
    await this.db.execute('DELETE FROM meta.labels WHERE id = $1', [id])
  }

  /** Labels per object name of a class, for object listings. */
  async forClass(ws: string, objectClass: string): Promise<Map<string, string[]>> {
    const r = await this.db.query(
      'SELECT object_name, labels FROM meta.labels WHERE workspace_id = $1 AND object_class = $2',
      [ws, objectClass],
    )
    const out = new Map<string, string[]>()
    for (const [name, labels] of r.rows as string[][])
      out.set(name, [...new Set([...(out.get(name) ?? []), ...(JSON.parse(labels) as string[])])])
    return out
  }
}
