/**
 * Dashboard operations of the Open API, under `/api/v1/dashboards/...` (the documented spelling)
 * and `/api/v1/dashboard/...` (spec 000's): list, create, get, modify, delete, export, import.
 * Delete answers GET as well as POST: the Terraform provider deletes with a GET.
 */
import type { Context } from 'hono'
import { FerryError } from '../../errors.js'
import type { DashboardInput } from '../store/dashboards.js'
import {
  createAnswer,
  deleteAnswer,
  exportAnswer,
  getAnswer,
  importAnswer,
  listAnswer,
  modifyAnswer,
  type KeyNames,
} from './dashboard-answer.js'
import { createInput, importInput, modifyInput } from './dashboard-input.js'
import type { WorkspaceDeps, WorkspaceEnv } from './deps.js'
import { ok } from './envelope.js'
import { pageInfo, paging } from './params.js'
import { checkedBody, checkQuery, type Body, type Route } from './route.js'

const both = (rest: string) => [`/api/v1/dashboards${rest}`, `/api/v1/dashboard${rest}`]

/** `tagNames` of the list: a JSON array (documented), or plain names, repeated or not. */
export function tagNamesQuery(values: string[]): string[] {
  return values.flatMap((v) => {
    if (!v.trim().startsWith('[')) return v ? [v] : []
    let list: unknown
    try {
      list = JSON.parse(v)
    } catch {
      list = null
    }
    if (!Array.isArray(list) || !list.every((t) => typeof t === 'string'))
      throw new FerryError('invalidParameter', 'tagNames must be a JSON array of strings')
    return list as string[]
  })
}

/** Key id -> name of the workspace's keys, for `updatorInfo`. */
async function keyNames(deps: WorkspaceDeps, c: Context<WorkspaceEnv>): Promise<KeyNames> {
  const keys = await deps.accounts.listKeys(c.get('workspace').name)
  return new Map(keys.map((k) => [k.id, k.name]))
}

export function dashboardRoutes(route: Route, deps: WorkspaceDeps, body: Body): void {
  const d = deps.dashboards
  const ws = (c: Context<WorkspaceEnv>) => c.get('workspace').id
  const id = (c: Context<WorkspaceEnv>) => c.req.param('id') ?? ''
  const parsed = checkedBody(deps, body)

  route('GET', both('/list'), async (c) => {
    checkQuery(deps, c, 'dashboard list', ['search', 'tagNames', 'pageIndex', 'pageSize'])
    const p = paging(c.req.query())
    const filter = {
      search: c.req.query('search') ?? '',
      tagNames: tagNamesQuery(c.req.queries('tagNames') ?? []),
    }
    const page = await d.list(ws(c), filter, (p.pageIndex - 1) * p.pageSize, p.pageSize)
    const keys = await keyNames(deps, c)
    const items = page.items.map((x) => listAnswer(x, keys))
    return ok(c, items, pageInfo(p, items.length, page.total))
  })
  route('POST', both('/create'), async (c) => {
    const input = await parsed(c, 'dashboard create', createInput)
    return ok(c, createAnswer(await d.create(ws(c), input, c.get('keyId'))))
  })
  route('GET', both('/:id/get'), async (c) => ok(c, getAnswer(await d.get(ws(c), id(c)))))
  route('POST', both('/:id/modify'), async (c) => {
    const input = await parsed(c, 'dashboard modify', modifyInput)
    const old = await d.get(ws(c), id(c))
    const now = await d.modify(ws(c), id(c), input, c.get('keyId'))
    return ok(c, modifyAnswer(now, old.name, await keyNames(deps, c)))
  })
  route(['POST', 'GET'], both('/:id/delete'), async (c) => {
    // The documented example posts `null`; a body, if any, is read for its limit only.
    if (c.req.method === 'POST') await body(c)
    return ok(c, deleteAnswer(await d.delete(ws(c), id(c))))
  })
  route('GET', both('/:id/export'), async (c) => ok(c, exportAnswer(await d.get(ws(c), id(c)))))
  route('POST', both('/:id/import'), async (c) => {
    const t = (await parsed(c, 'dashboard import', importInput)).templateInfo!
    return ok(c, importAnswer(await d.modify(ws(c), id(c), imported(t), c.get('keyId'))))
  })
}

/** What an imported template sets: itself, and the `extend` and mapping it carries. */
function imported(t: Record<string, unknown>): DashboardInput {
  const out: DashboardInput = { templateInfo: t, createdWay: 'import' }
  if (typeof t.dashboardExtend === 'object' && t.dashboardExtend !== null)
    out.extend = t.dashboardExtend as Record<string, unknown>
  if (Array.isArray(t.dashboardMapping)) out.mapping = t.dashboardMapping
  return out
}
