/**
 * Notes of a workspace, as the Open API documents them: a name (at most 128 characters), the
 * ids of the charts the note shows (`chartUUIDs`, kept in order) and a free JSON `extend`, with
 * creation and update times and the API key id that made each change. Ids are `notes_` + 32
 * hex; `num` is the documented integer `id`. Every statement of this entity is in this file.
 */
import crypto from 'node:crypto'
import { FerryError } from '../../errors.js'
import type { Db } from './db.js'
import type { Note, NoteInput } from './records.js'
import type { NoteStore } from './metadata.js'

export type { Note, NoteInput } from './records.js'

const COLUMNS =
  'id, num, workspace_id, name, charts, extend, created_at, updated_at, creator, updator'

export function toNote(r: unknown[]): Note {
  return {
    uuid: String(r[0]),
    num: Number(r[1]),
    workspaceUUID: String(r[2]),
    name: String(r[3]),
    chartUUIDs: JSON.parse(String(r[4])) as string[],
    extend: JSON.parse(String(r[5])) as Record<string, unknown>,
    createAt: Math.floor(Number(r[6]) / 1000),
    updateAt: Math.floor(Number(r[7]) / 1000),
    creator: String(r[8]),
    updator: String(r[9]),
  }
}

export class Notes implements NoteStore {
  constructor(private readonly db: Db) {}

  /** Newest change first; the documented list has no paging. */
  async list(ws: string, search: string): Promise<Note[]> {
    const r = await this.db.query(
      `SELECT ${COLUMNS} FROM meta.notes WHERE workspace_id = $1 AND contains(lower(name), lower($2))
       ORDER BY updated_at DESC, id`,
      [ws, search],
    )
    return r.rows.map(toNote)
  }

  async get(ws: string, id: string): Promise<Note> {
    const r = await this.db.query(
      `SELECT ${COLUMNS} FROM meta.notes WHERE workspace_id = $1 AND id = $2`,
      [ws, id],
    )
    if (!r.rows.length) throw new FerryError('objectNotFound', `note ${id} not found`)
    return toNote(r.rows[0])
  }

  async create(ws: string, input: NoteInput, by: string): Promise<Note> {
    const id = `notes_${crypto.randomBytes(16).toString('hex')}`
    const now = Date.now()
    await this.db.execute(
      `INSERT INTO meta.notes (${COLUMNS})
       VALUES ($1, nextval('meta.note_num'), $2, $3, $4, $5, $6, $6, $7, $7)`,
      [
        id,
        ws,
        input.name,
        JSON.stringify(input.chartUUIDs ?? []),
        JSON.stringify(input.extend ?? {}),
        now,
        by,
      ],
    )
    return this.get(ws, id)
  }

  /** The name is required on modify too (documented); the lists given replace the stored. */
  async modify(ws: string, id: string, input: NoteInput, by: string): Promise<Note> {
    const old = await this.get(ws, id)
    await this.db.execute(
      `UPDATE meta.notes SET name = $3, charts = $4, extend = $5, updated_at = $6, updator = $7
       WHERE workspace_id = $1 AND id = $2`,
      [
        ws,
        id,
        input.name,
        JSON.stringify(input.chartUUIDs ?? old.chartUUIDs),
        JSON.stringify(input.extend ?? old.extend),
        Date.now(),
        by,
      ],
    )
    return this.get(ws, id)
  }

  async delete(ws: string, id: string): Promise<Note> {
    const old = await this.get(ws, id)
    await this.db.execute('DELETE FROM meta.notes WHERE workspace_id = $1 AND id = $2', [ws, id])
    return old
  }
}
