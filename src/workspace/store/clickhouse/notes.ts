/** Notes on ClickHouse (meta-tables.ts): each change a new version of the whole row. */
import crypto from 'node:crypto'
import { FerryError } from '../../../errors.js'
import type { NoteStore } from '../metadata.js'
import { toNote, type Note, type NoteInput } from '../notes.js'
import { nextNum } from './dashboards.js'
import { META_TABLES } from './meta-ddl.js'
import type { MetaTables } from './meta-tables.js'

const T = META_TABLES.notes
const COLUMNS =
  'id, num, workspace_id, name, charts, extend, created_at, updated_at, creator, updator'

export class ClickHouseNotes implements NoteStore {
  constructor(private readonly t: MetaTables) {}

  async list(ws: string, search: string): Promise<Note[]> {
    const where = 'workspace_id = $1 AND positionCaseInsensitiveUTF8(name, $2) > 0'
    const rows = await this.t.select(
      T,
      COLUMNS,
      where,
      [ws, search],
      'ORDER BY updated_at DESC, id',
    )
    return rows.map(toNote)
  }

  async get(ws: string, id: string): Promise<Note> {
    const rows = await this.t.select(T, COLUMNS, 'workspace_id = $1 AND id = $2', [ws, id])
    if (!rows.length) throw new FerryError('objectNotFound', `note ${id} not found`)
    return toNote(rows[0])
  }

  /** The stored row as `put` writes it, with the times in ms. */
  private async row(ws: string, id: string): Promise<unknown[]> {
    const rows = await this.t.select(T, COLUMNS, 'workspace_id = $1 AND id = $2', [ws, id])
    if (!rows.length) throw new FerryError('objectNotFound', `note ${id} not found`)
    return rows[0]
  }

  private put(ws: string, n: Note, createdMs: number, deleted = false): Promise<void> {
    const texts = [n.name, JSON.stringify(n.chartUUIDs), JSON.stringify(n.extend)]
    const row = [ws, n.uuid, n.num, ...texts, createdMs, Date.now(), n.creator, n.updator]
    return this.t.put(T, [row], deleted)
  }

  async create(ws: string, input: NoteInput, by: string): Promise<Note> {
    const id = `notes_${crypto.randomBytes(16).toString('hex')}`
    const charts = JSON.stringify(input.chartUUIDs ?? [])
    const n = toNote([id, nextNum(), ws, input.name, charts, JSON.stringify(input.extend ?? {})])
    await this.put(ws, { ...n, creator: by, updator: by }, Date.now())
    return this.get(ws, id)
  }

  async modify(ws: string, id: string, input: NoteInput, by: string): Promise<Note> {
    const row = await this.row(ws, id)
    const old = toNote(row)
    const next = { ...old, name: input.name, updator: by }
    next.chartUUIDs = input.chartUUIDs ?? old.chartUUIDs
    next.extend = input.extend ?? old.extend
    await this.put(ws, next, Number(row[6]))
    return this.get(ws, id)
  }

  async delete(ws: string, id: string): Promise<Note> {
    const row = await this.row(ws, id)
    await this.put(ws, toNote(row), Number(row[6]), true)
    return toNote(row)
  }
}
