/**
 * Notes of the Open API as documented: `notes/list` (no paging; `{data: [...]}`), `create`,
 * `{id}/get`, `{id}/modify` (the name is required there too; the answer carries `oldName`) and
 * `{id}/delete` (GET as documented, POST too; the answer is `{noteName}`). A note refers to
 * charts by id; Ferry has no chart objects apart from dashboards, so `get` answers `charts: []`
 * and the ids are kept and answered in `pos` and `chartUUIDs`.
 */
import type { Context } from 'hono'
import type { Note, NoteInput } from '../store/notes.js'
import type { WorkspaceDeps, WorkspaceEnv } from './deps.js'
import { ok } from './envelope.js'
import { object, parseBody, strings, text, type Fields } from './fields.js'
import { checkedBody, checkQuery, type Body, type Route } from './route.js'

const FIELDS: Fields<NoteInput> = {
  name: [text(128, false), 'name'],
  chartUUIDs: [strings(32), 'chartUUIDs'],
  extend: [object, 'extend'],
}

const noteInput = (body: unknown) => parseBody(body, FIELDS, ['name'])

function record(n: Note) {
  return {
    createAt: n.createAt,
    creator: n.creator,
    deleteAt: -1,
    extend: n.extend,
    id: n.num,
    isPublic: 1,
    name: n.name,
    pos: n.chartUUIDs.map((chartUUID) => ({ chartUUID })),
    status: 0,
    updateAt: n.updateAt,
    updator: n.updator,
    uuid: n.uuid,
    workspaceUUID: n.workspaceUUID,
    chartUUIDs: n.chartUUIDs,
  }
}

const who = (id: string) => ({ email: id, iconUrl: '', name: '', username: id })

export function notesRoutes(route: Route, deps: WorkspaceDeps, body: Body): void {
  const n = deps.notes
  const parsed = checkedBody(deps, body)
  const ws = (c: Context<WorkspaceEnv>) => c.get('workspace').id
  const id = (c: Context<WorkspaceEnv>) => c.req.param('id') ?? ''
  const withPeople = (x: Note) => ({
    ...record(x),
    creatorInfo: who(x.creator),
    updatorInfo: who(x.updator),
  })

  route('GET', ['/api/v1/notes/list'], async (c) => {
    checkQuery(deps, c, 'notes list', ['search'])
    const list = await n.list(ws(c), c.req.query('search') ?? '')
    return ok(c, { data: list.map((x) => ({ ...withPeople(x), isFavourited: false })) })
  })
  route('POST', ['/api/v1/notes/create'], async (c) => {
    const input = await parsed(c, 'notes create', noteInput)
    return ok(c, record(await n.create(ws(c), input, c.get('keyId'))))
  })
  route('GET', ['/api/v1/notes/:id/get'], async (c) =>
    ok(c, { ...withPeople(await n.get(ws(c), id(c))), charts: [] }),
  )
  route('POST', ['/api/v1/notes/:id/modify'], async (c) => {
    const input = await parsed(c, 'notes modify', noteInput)
    const old = await n.get(ws(c), id(c))
    const now = await n.modify(ws(c), id(c), input, c.get('keyId'))
    return ok(c, { ...record(now), oldName: old.name })
  })
  route(['GET', 'POST'], ['/api/v1/notes/:id/delete'], async (c) => {
    if (c.req.method === 'POST') await body(c)
    return ok(c, { noteName: (await n.delete(ws(c), id(c))).name })
  })
}
