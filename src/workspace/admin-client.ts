/**
 * The operations behind `ferry workspace create|list|key|retention ...`, on the metadata store
 * directly when no service holds it, otherwise through the running service's loopback admin
 * routes.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Config } from '../config/schema.js'
import { FerryError, type ErrorCode } from '../errors.js'
import { splitListen } from '../http/server.js'
import { ADMIN_HEADER } from './api/admin.js'
import { ADMIN_SECRET_FILE, workspaceDir } from './service.js'
import { RetentionAdmin, type RetentionEntry } from './retention-admin.js'
import type { ApiKeyInfo, Workspace } from './store/accounts.js'
import type { MetadataStore } from './store/metadata.js'
import { openMetadata, type MetadataHandle } from './store/open.js'

export interface AdminOps {
  create(name: string): Promise<Workspace>
  list(): Promise<Workspace[]>
  createKey(workspace: string, name: string): Promise<{ info: ApiKeyInfo; key: string }>
  listKeys(workspace: string): Promise<ApiKeyInfo[]>
  revokeKey(id: string): Promise<void>
  setRetention(workspace: string, category: string, keepMs: number): Promise<RetentionEntry>
  /** False when the workspace had no retention of its own for the category. */
  clearRetention(workspace: string, category: string): Promise<boolean>
  listRetention(workspace?: string): Promise<RetentionEntry[]>
}

class RemoteAdmin implements AdminOps {
  constructor(
    private readonly base: string,
    private readonly secret: string,
  ) {}

  private async call<T>(method: string, route: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.base}/admin/v1/${route}`, {
      method,
      headers: { [ADMIN_HEADER]: this.secret, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const env = (await res.json()) as { content: T; errorCode: string; message: string }
    if (!res.ok) {
      const code = (env.errorCode[0].toLowerCase() + env.errorCode.slice(1)) as ErrorCode
      throw new FerryError(code, env.message)
    }
    return env.content
  }

  create = (name: string) => this.call<Workspace>('POST', 'workspace/create', { name })
  list = () => this.call<Workspace[]>('GET', 'workspace/list')
  createKey = (workspace: string, name: string) =>
    this.call<{ info: ApiKeyInfo; key: string }>('POST', 'key/create', { workspace, name })
  listKeys = (workspace: string) =>
    this.call<ApiKeyInfo[]>('GET', `key/list?workspace=${encodeURIComponent(workspace)}`)
  revokeKey = async (id: string) => void (await this.call<boolean>('POST', 'key/revoke', { id }))
  setRetention = (workspace: string, category: string, keepMs: number) =>
    this.call<RetentionEntry>('POST', 'retention/set', { workspace, category, keep_ms: keepMs })
  clearRetention = (workspace: string, category: string) =>
    this.call<boolean>('POST', 'retention/clear', { workspace, category })
  listRetention = (workspace?: string) =>
    this.call<RetentionEntry[]>(
      'GET',
      `retention/list${workspace ? `?workspace=${encodeURIComponent(workspace)}` : ''}`,
    )
}

/** The same operations on an open metadata store. */
function local(meta: MetadataStore): AdminOps {
  const a = meta.accounts
  const r = new RetentionAdmin(a, meta.retentionOverrides)
  return {
    create: (name) => a.create(name),
    list: () => a.list(),
    createKey: (workspace, name) => a.createKey(workspace, name),
    listKeys: (workspace) => a.listKeys(workspace),
    revokeKey: (id) => a.revokeKey(id),
    setRetention: (workspace, category, keepMs) => r.set(workspace, category, keepMs),
    clearRetention: (workspace, category) => r.clear(workspace, category),
    listRetention: (workspace) => r.list(workspace),
  }
}

function remote(cfg: Config, dir: string): RemoteAdmin {
  const secret = fs.readFileSync(path.join(dir, ADMIN_SECRET_FILE), 'utf8').trim()
  const { hostname, port } = splitListen(cfg.workspace.listen)
  const host = hostname === '0.0.0.0' || hostname === '::' ? '127.0.0.1' : hostname
  return new RemoteAdmin(`http://${host.includes(':') ? `[${host}]` : host}:${port}`, secret)
}

/** Runs `fn` against the metadata store, or against the running service that holds it. */
export async function withAdmin<T>(cfg: Config, fn: (ops: AdminOps) => Promise<T>): Promise<T> {
  const dir = workspaceDir(cfg)
  let store: MetadataHandle
  try {
    store = await openMetadata(cfg.workspace, dir, cfg['workspace.clickhouse'])
  } catch (e) {
    if (e instanceof FerryError && e.code === 'databaseLocked') return fn(remote(cfg, dir))
    throw e
  }
  try {
    return await fn(local(store.meta))
  } finally {
    await store.close()
  }
}
