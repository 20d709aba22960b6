/**
 * A workspace's own retention per category, as `ferry workspace retention ...` and the admin
 * routes set it: by workspace name, the category checked against the ten of the write API, the
 * duration in whole milliseconds (0 keeps forever). Unknown workspaces and categories are
 * errors here, so the store below only ever holds valid rows. The sweep reads them directly.
 */
import { FerryError } from '../errors.js'
import { CATEGORY_NAMES, isCategory, type Category } from '../shared/category.js'
import type { AccountStore, RetentionOverrideStore } from './store/metadata.js'

export interface RetentionEntry {
  workspace: string
  category: Category
  /** 0: kept forever. */
  keepMs: number
}

export function checkCategory(category: string): Category {
  if (isCategory(category)) return category
  throw new FerryError(
    'invalidCategory',
    `unknown category ${JSON.stringify(category)}; expected one of ${CATEGORY_NAMES.join(', ')}`,
  )
}

export function checkKeepMs(keepMs: unknown): number {
  if (typeof keepMs === 'number' && Number.isSafeInteger(keepMs) && keepMs >= 0) return keepMs
  throw new FerryError('invalidParameter', 'a retention is a whole number of ms, 0 or more')
}

export class RetentionAdmin {
  constructor(
    private readonly accounts: Pick<AccountStore, 'byName' | 'list'>,
    private readonly overrides: RetentionOverrideStore,
  ) {}

  async set(workspace: string, category: string, keepMs: unknown): Promise<RetentionEntry> {
    const c = checkCategory(category)
    const ms = checkKeepMs(keepMs)
    const ws = await this.accounts.byName(workspace)
    await this.overrides.set(ws.id, c, ms)
    return { workspace: ws.name, category: c, keepMs: ms }
  }

  /** False when the workspace had no retention of its own for the category. */
  async clear(workspace: string, category: string): Promise<boolean> {
    const c = checkCategory(category)
    const ws = await this.accounts.byName(workspace)
    return this.overrides.clear(ws.id, c)
  }

  /** One workspace's overrides, or every workspace's, ordered by workspace name and category. */
  async list(workspace?: string): Promise<RetentionEntry[]> {
    const names = new Map<string, string>()
    if (workspace) {
      const ws = await this.accounts.byName(workspace)
      names.set(ws.id, ws.name)
    } else for (const ws of await this.accounts.list()) names.set(ws.id, ws.name)
    const rows = await this.overrides.list(workspace ? [...names.keys()][0] : undefined)
    const out: RetentionEntry[] = []
    for (const r of rows) {
      const name = names.get(r.workspaceId)
      if (name !== undefined) out.push({ workspace: name, category: r.category, keepMs: r.keepMs })
    }
    const key = (e: RetentionEntry) => `${e.workspace}\u0000${e.category}`
    return out.sort((a, b) => (key(a) < key(b) ? -1 : 1))
  }
}
