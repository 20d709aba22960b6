/**
 * Workspaces, their data tokens and their API keys. A workspace has one data token
 * (`tkn_` + 32 hex, used by agents in `?token=`) and any number of API keys (`DF-API-KEY`).
 * Keys are random 40-hex strings stored only as SHA-256 hashes; a revoked key stays listed.
 * Lookups are cached in memory and the caches are dropped on every change.
 *
 * A data token is found by comparing its digest with every workspace's in constant time (there
 * are few workspaces), never by a lookup whose time depends on the token. API key lookups go
 * by the key's hash; their cache, misses included, holds at most `KEY_CACHE_SIZE` entries.
 */
import crypto from 'node:crypto'
import { FerryError } from '../../errors.js'
import { LruMap } from '../../shared/lru.js'
import { matchesDigest, secretDigest } from '../../shared/secret.js'
import type { Db } from './db.js'
import type { Workspace, ApiKeyInfo, KeyOwner } from './records.js'
import type { AccountStore } from './metadata.js'

export type { Workspace, ApiKeyInfo, KeyOwner } from './records.js'

export const KEY_CACHE_SIZE = 10_000

export const hex = (bytes: number) => crypto.randomBytes(bytes).toString('hex')
export const hash = (key: string) => crypto.createHash('sha256').update(key).digest('hex')

/** A new workspace of that name, with its id and data token (the name checked). */
export function newWorkspace(name: string): Workspace {
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name))
    throw new FerryError('invalidParameter', 'a workspace name is 1-64 letters, digits, _ . or -')
  return { id: `wksp_${hex(16)}`, name, token: `tkn_${hex(16)}`, createdAt: Date.now() }
}

/** A new API key of a workspace: the key itself and what is stored of it. */
export function newApiKey(ws: Workspace, name: string): { info: ApiKeyInfo; key: string } {
  const key = hex(20)
  const info: ApiKeyInfo = {
    id: `ak_${hex(8)}`,
    workspace: ws.name,
    name,
    prefix: key.slice(0, 6),
    createdAt: Date.now(),
    revokedAt: null,
  }
  return { info, key }
}

/** A listed key from its row (id, name, prefix, created_at, revoked_at). */
export function toKeyInfo(x: unknown[], ws: Workspace): ApiKeyInfo {
  return {
    id: String(x[0]),
    workspace: ws.name,
    name: String(x[1]),
    prefix: String(x[2]),
    createdAt: Number(x[3]),
    revokedAt: x[4] === null ? null : Number(x[4]),
  }
}

export function toWorkspace(r: unknown[]): Workspace {
  return { id: String(r[0]), name: String(r[1]), token: String(r[2]), createdAt: Number(r[3]) }
}

export class Accounts implements AccountStore {
  private tokens: { ws: Workspace; digest: Buffer }[] | null = null
  /** Bumped by every change, so a list read before the change is not cached after it. */
  private generation = 0
  private readonly byKeyCache = new LruMap<string, KeyOwner | null>(KEY_CACHE_SIZE)

  constructor(private readonly db: Db) {}

  private invalidate(): void {
    this.generation++
    this.tokens = null
    this.byKeyCache.clear()
  }

  /** Entries in the API key cache (bounded). */
  get keyCacheSize(): number {
    return this.byKeyCache.size
  }

  async list(): Promise<Workspace[]> {
    const r = await this.db.query(
      'SELECT id, name, token, created_at FROM meta.workspaces ORDER BY created_at',
    )
    return r.rows.map(toWorkspace)
  }

  async byName(name: string): Promise<Workspace> {
    const r = await this.db.query(
      'SELECT id, name, token, created_at FROM meta.workspaces WHERE name = $1',
      [name],
    )
    if (!r.rows.length)
      throw new FerryError('objectNotFound', `no workspace named ${JSON.stringify(name)}`)
    return toWorkspace(r.rows[0])
  }

  async byToken(token: string): Promise<Workspace | undefined> {
    let tokens = this.tokens
    if (!tokens) {
      const gen = this.generation
      tokens = (await this.list()).map((ws) => ({ ws, digest: secretDigest(ws.token) }))
      if (gen === this.generation) this.tokens = tokens
    }
    let found: Workspace | undefined
    // No early exit: every workspace is compared, whichever matches.
    for (const t of tokens) if (matchesDigest(token, t.digest)) found = t.ws
    return found
  }

  async byApiKey(key: string): Promise<Workspace | undefined> {
    return (await this.ownerOfKey(key))?.workspace
  }

  /** The workspace of an API key and the key's id (the Open API's `creator`/`updator`). */
  async ownerOfKey(key: string): Promise<KeyOwner | undefined> {
    const h = hash(key)
    if (this.byKeyCache.has(h)) return this.byKeyCache.get(h) ?? undefined
    const r = await this.db.query(
      `SELECT w.id, w.name, w.token, w.created_at, k.id FROM meta.api_keys k
       JOIN meta.workspaces w ON w.id = k.workspace_id WHERE k.hash = $1 AND k.revoked_at IS NULL`,
      [h],
    )
    const owner = r.rows.length
      ? { workspace: toWorkspace(r.rows[0]), keyId: String(r.rows[0][4]) }
      : null
    this.byKeyCache.set(h, owner)
    return owner ?? undefined
  }

  /** Creates a workspace with its data token (names are unique). */
  async create(name: string): Promise<Workspace> {
    const ws = newWorkspace(name)
    try {
      await this.db.execute('INSERT INTO meta.workspaces VALUES ($1, $2, $3, $4)', [
        ws.id,
        ws.name,
        ws.token,
        ws.createdAt,
      ])
    } catch (e) {
      if (/constraint/i.test((e as Error).message))
        throw new FerryError('invalidParameter', `workspace ${JSON.stringify(name)} already exists`)
      throw e
    }
    this.invalidate()
    return ws
  }

  /** The named workspace, created when missing. */
  async ensure(name: string): Promise<Workspace> {
    try {
      return await this.byName(name)
    } catch (e) {
      if (e instanceof FerryError && e.code === 'objectNotFound') return this.create(name)
      throw e
    }
  }

  /** Returns the key itself: the only time it is ever shown. */
  async createKey(workspace: string, name: string): Promise<{ info: ApiKeyInfo; key: string }> {
    const ws = await this.byName(workspace)
    const { info, key } = newApiKey(ws, name)
    await this.db.execute('INSERT INTO meta.api_keys VALUES ($1, $2, $3, $4, $5, $6, NULL)', [
      info.id,
      ws.id,
      name,
      hash(key),
      info.prefix,
      info.createdAt,
    ])
    this.invalidate()
    return { info, key }
  }

  async listKeys(workspace: string): Promise<ApiKeyInfo[]> {
    const ws = await this.byName(workspace)
    const r = await this.db.query(
      'SELECT id, name, prefix, created_at, revoked_at FROM meta.api_keys WHERE workspace_id = $1 ORDER BY created_at',
      [ws.id],
    )
    return r.rows.map((x) => toKeyInfo(x, ws))
  }

  async revokeKey(id: string): Promise<void> {
    const r = await this.db.query('SELECT revoked_at FROM meta.api_keys WHERE id = $1', [id])
    if (!r.rows.length) throw new FerryError('objectNotFound', `no API key ${JSON.stringify(id)}`)
    await this.db.execute('UPDATE meta.api_keys SET revoked_at = $2 WHERE id = $1', [
      id,
      Date.now(),
    ])
    this.invalidate()
  }
}
