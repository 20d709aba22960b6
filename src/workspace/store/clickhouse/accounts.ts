/**
 * Workspaces, data tokens and API keys on ClickHouse (meta-tables.ts). Several processes share
 * them, so the caches here expire: a change made by this process is seen at once (its caches
 * are dropped), one made by another within `CACHE_TTL_MS`. Tokens are compared in constant time
 * against every workspace's, as in the DuckDB store; a token not found reloads the list at most
 * once per `MISS_RELOAD_MS`, so a workspace created elsewhere is known soon, and a flood of bad
 * tokens costs one read per interval. The key cache holds at most `KEY_CACHE_SIZE` entries.
 */
import { FerryError } from '../../../errors.js'
import { LruMap } from '../../../shared/lru.js'
import { matchesDigest, secretDigest } from '../../../shared/secret.js'
import {
  hash,
  KEY_CACHE_SIZE,
  newApiKey,
  newWorkspace,
  toKeyInfo,
  toWorkspace,
  type ApiKeyInfo,
  type KeyOwner,
  type Workspace,
} from '../accounts.js'
import type { AccountStore } from '../metadata.js'
import { META_TABLES } from './meta-ddl.js'
import type { MetaTables } from './meta-tables.js'

export const CACHE_TTL_MS = 5_000
const MISS_RELOAD_MS = 1_000
const WS = META_TABLES.workspaces
const KEYS = META_TABLES.api_keys

interface Tokens {
  at: number
  list: { ws: Workspace; digest: Buffer }[]
}

export class ClickHouseAccounts implements AccountStore {
  private tokens: Tokens | null = null
  private readonly byKeyCache = new LruMap<string, { at: number; owner: KeyOwner | null }>(
    KEY_CACHE_SIZE,
  )

  constructor(private readonly t: MetaTables) {}

  get keyCacheSize(): number {
    return this.byKeyCache.size
  }

  private invalidate(): void {
    this.tokens = null
    this.byKeyCache.clear()
  }

  async list(): Promise<Workspace[]> {
    const rows = await this.t.select(
      WS,
      'id, name, token, created_at',
      '',
      [],
      'ORDER BY created_at, id LIMIT 1 BY name',
    )
    return rows.map(toWorkspace)
  }

  async byName(name: string): Promise<Workspace> {
    const rows = await this.t.select(
      WS,
      'id, name, token, created_at',
      'name = $1',
      [name],
      'ORDER BY created_at, id LIMIT 1',
    )
    if (!rows.length)
      throw new FerryError('objectNotFound', `no workspace named ${JSON.stringify(name)}`)
    return toWorkspace(rows[0])
  }

  private async loadTokens(): Promise<Tokens> {
    const list = (await this.list()).map((ws) => ({ ws, digest: secretDigest(ws.token) }))
    return (this.tokens = { at: Date.now(), list })
  }

  async byToken(token: string): Promise<Workspace | undefined> {
    let t = this.tokens
    if (!t || Date.now() - t.at > CACHE_TTL_MS) t = await this.loadTokens()
    let found = match(t, token)
    if (!found && Date.now() - t.at > MISS_RELOAD_MS) found = match(await this.loadTokens(), token)
    return found
  }

  async byApiKey(key: string): Promise<Workspace | undefined> {
    return (await this.ownerOfKey(key))?.workspace
  }

  async ownerOfKey(key: string): Promise<KeyOwner | undefined> {
    const h = hash(key)
    const hit = this.byKeyCache.get(h)
    if (hit && Date.now() - hit.at <= CACHE_TTL_MS) return hit.owner ?? undefined
    const keys = await this.t.select(KEYS, 'workspace_id, id', 'hash = $1 AND revoked_at IS NULL', [
      h,
    ])
    let owner: KeyOwner | null = null
    if (keys.length) {
      const [wsId, keyId] = keys[0] as string[]
      const found = await this.t.select(WS, 'id, name, token, created_at', 'id = $1', [wsId])
      owner = found.length ? { workspace: toWorkspace(found[0]), keyId } : null
    }
    this.byKeyCache.set(h, { at: Date.now(), owner })
    return owner ?? undefined
  }

  async create(name: string): Promise<Workspace> {
    const ws = newWorkspace(name)
    if ((await this.t.select(WS, 'id', 'name = $1', [name])).length)
      throw new FerryError('invalidParameter', `workspace ${JSON.stringify(name)} already exists`)
    await this.t.put(WS, [[ws.id, ws.name, ws.token, ws.createdAt]])
    this.invalidate()
    // Two processes creating one name at once both wrote; the oldest row is the workspace.
    return this.byName(name)
  }

  async ensure(name: string): Promise<Workspace> {
    try {
      return await this.byName(name)
    } catch (e) {
      if (!(e instanceof FerryError && e.code === 'objectNotFound')) throw e
    }
    try {
      return await this.create(name)
    } catch (e) {
      if (e instanceof FerryError && e.code === 'invalidParameter') return this.byName(name)
      throw e
    }
  }

  async createKey(workspace: string, name: string): Promise<{ info: ApiKeyInfo; key: string }> {
    const ws = await this.byName(workspace)
    const { info, key } = newApiKey(ws, name)
    await this.t.put(KEYS, [[info.id, ws.id, name, hash(key), info.prefix, info.createdAt, null]])
    this.invalidate()
    return { info, key }
  }

  async listKeys(workspace: string): Promise<ApiKeyInfo[]> {
    const ws = await this.byName(workspace)
    const rows = await this.t.select(
      KEYS,
      'id, name, prefix, created_at, revoked_at',
      'workspace_id = $1',
      [ws.id],
      'ORDER BY created_at, id',
    )
    return rows.map((x) => toKeyInfo(x, ws))
  }

  async revokeKey(id: string): Promise<void> {
    const cols = 'id, workspace_id, name, hash, prefix, created_at, revoked_at'
    const rows = await this.t.select(KEYS, cols, 'id = $1', [id])
    if (!rows.length) throw new FerryError('objectNotFound', `no API key ${JSON.stringify(id)}`)
    const row = rows[0] as (string | bigint | null)[]
    if (row[6] === null) await this.t.put(KEYS, [[...row.slice(0, 6), Date.now()]])
    this.invalidate()
  }
}

/** The workspace whose token is `token`; every workspace compared, whichever matches. */
function match(t: Tokens, token: string): Workspace | undefined {
  let found: Workspace | undefined
  for (const x of t.list) if (matchesDigest(token, x.digest)) found = x.ws
  return found
}
