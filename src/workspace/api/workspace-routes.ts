/**
 * The workspace of the request's key and its API keys, as the Open API documents them:
 * `workspace/get`, `workspace/accesskey/list|add|{id}/delete` (`create` is an alias of `add`;
 * delete answers GET, as documented, and POST).
 *
 * Keys are stored as hashes, so a key's secret (`sk`) is shown only where the caller already
 * holds it: when it is created, and for the very key a list request was made with (there `ak`
 * and `sk` are both that key, which is what Ferry takes in `DF-API-KEY`; the DataFlux Func
 * client checks a key by finding it so in the list). Other keys show their prefix and `…`.
 */
import { FerryError } from '../../errors.js'
import type { Category } from '../../shared/category.js'
import type { ApiKeyInfo, Workspace } from '../store/accounts.js'
import { retentionFor } from '../store/retention.js'
import type { WorkspaceDeps } from './deps.js'
import { ok } from './envelope.js'
import type { Body, Route } from './route.js'

const seconds = (ms: number) => Math.floor(ms / 1000)

/** The documented `durationSet` keys and the category each stands for (`rp`: metrics). */
const DURATIONS: [string, Category][] = [
  ['keyevent', 'keyevent'],
  ['logging', 'logging'],
  ['network', 'network'],
  ['rp', 'metric'],
  ['rum', 'rum'],
  ['security', 'security'],
  ['tracing', 'tracing'],
]

/**
 * How long the workspace keeps each category: its own override, else the global key. `0d` is
 * Ferry's "kept forever"; `backup_log` (the service's log backup) has no counterpart here.
 */
async function durationSet(ws: Workspace, deps: WorkspaceDeps): Promise<Record<string, string>> {
  const overrides = await deps.retentionOverrides.map()
  const days = (ms: number) => `${Math.round(ms / 86_400_000)}d`
  return Object.fromEntries(
    DURATIONS.map(([k, c]) => [k, days(retentionFor(deps.config, overrides, ws.id, c))]),
  )
}

/** The documented fields; those of the hosted service's billing and storage are neutral. */
async function workspaceAnswer(ws: Workspace, deps: WorkspaceDeps) {
  return {
    billingState: 'normal',
    createAt: seconds(ws.createdAt),
    creator: '',
    dashboardUUID: null,
    dbUUID: '',
    deleteAt: -1,
    desc: '',
    durationSet: await durationSet(ws, deps),
    enablePublicDataway: 1,
    esInstanceUUID: '',
    extend: {},
    exterId: '',
    id: null,
    isOpenWarehouse: 0,
    // Ferry has keys, not members.
    memberCount: 0,
    name: ws.name,
    rpName: '',
    status: 0,
    updateAt: seconds(ws.createdAt),
    updator: '',
    uuid: ws.id,
    versionType: 'free',
  }
}

function keyAnswer(k: ApiKeyInfo, ws: Workspace, secret: string | null) {
  const shown = secret ?? `${k.prefix}…`
  return {
    ak: shown,
    createAt: seconds(k.createdAt),
    creator: '',
    deleteAt: k.revokedAt === null ? -1 : seconds(k.revokedAt),
    id: null,
    name: k.name,
    sk: shown,
    status: k.revokedAt === null ? 0 : 1,
    updateAt: seconds(k.revokedAt ?? k.createdAt),
    updator: '',
    uuid: k.id,
    workspaceUUID: ws.id,
  }
}

/** The name of a new key from the request's body: a non-empty string of at most 128. */
function keyName(b: unknown): string {
  const name = b && typeof b === 'object' ? (b as Record<string, unknown>).name : undefined
  if (typeof name !== 'string' || !name.trim() || name.length > 128)
    throw new FerryError(
      'invalidParameter',
      'name must be a non-empty string of at most 128 characters',
    )
  return name
}

/** The workspace's API keys: list (the caller's own shown), add, delete. */
function accessKeyRoutes(route: Route, deps: WorkspaceDeps, body: Body): void {
  const a = deps.accounts
  route('GET', ['/api/v1/workspace/accesskey/list'], async (c) => {
    const ws = c.get('workspace')
    const search = (c.req.query('search') ?? '').toLowerCase()
    const keys = (await a.listKeys(ws.name)).filter(
      (k) => k.revokedAt === null && k.name.toLowerCase().includes(search),
    )
    const own = c.req.header('df-api-key') ?? ''
    return ok(
      c,
      keys.map((k) => keyAnswer(k, ws, k.id === c.get('keyId') ? own : null)),
    )
  })
  route(
    'POST',
    ['/api/v1/workspace/accesskey/add', '/api/v1/workspace/accesskey/create'],
    async (c) => {
      const name = keyName(await body(c))
      const ws = c.get('workspace')
      const made = await a.createKey(ws.name, name)
      return ok(c, { ...keyAnswer(made.info, ws, made.key), creator: c.get('keyId') })
    },
  )
  route(['GET', 'POST'], ['/api/v1/workspace/accesskey/:id/delete'], async (c) => {
    const ws = c.get('workspace')
    const id = c.req.param('id') ?? ''
    const key = (await a.listKeys(ws.name)).find((k) => k.id === id && k.revokedAt === null)
    if (!key) throw new FerryError('objectNotFound', `no API key ${JSON.stringify(id)}`)
    await a.revokeKey(id)
    return ok(c, true)
  })
}

export function workspaceRoutes(route: Route, deps: WorkspaceDeps, body: Body): void {
  route('GET', ['/api/v1/workspace/get'], async (c) =>
    ok(c, await workspaceAnswer(c.get('workspace'), deps)),
  )
  accessKeyRoutes(route, deps, body)
}
