/**
 * Persists global tag changes to the main config file (host mode): `[global_host_tags]` for
 * host tags, `[election] tags` for election tags. The file gets the same change the API made,
 * not the in-memory tables (which may hold ENV_* tags that do not belong in the file).
 *
 * Changes arriving together are applied in one edit, in arrival order (a burst of requests
 * costs one rewrite, and two edits never race over the file); each caller learns whether its
 * change is on disk before the API answers.
 */
import { editTomlFile, type TomlDoc } from '../config/edit.js'
import type { TagTable } from './global-tags.js'

export interface TagChange {
  table: TagTable
  set?: Record<string, string>
  delete?: readonly string[]
}

interface Pending {
  change: TagChange
  resolve: () => void
  reject: (e: unknown) => void
}

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Applies a change to the document; a table the file lacked is added only if it gets keys. */
export function applyChange(doc: TomlDoc, c: TagChange): void {
  const parent: Obj = c.table === 'host' ? doc : isObj(doc.election) ? doc.election : {}
  const key = c.table === 'host' ? 'global_host_tags' : 'tags'
  const t: Obj = isObj(parent[key]) ? { ...parent[key] } : {}
  for (const [k, v] of Object.entries(c.set ?? {})) if (k !== 'host') t[k] = v
  for (const k of c.delete ?? []) delete t[k]
  if (Object.keys(t).length === 0 && !isObj(parent[key])) return
  parent[key] = t
  if (c.table === 'election') doc.election = parent
}

export class TagFile {
  private pending: Pending[] = []
  private scheduled = false

  constructor(readonly file: string) {}

  /** Resolves once the change is in the file (or the file needed no change). */
  apply(change: TagChange): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ change, resolve, reject })
      if (!this.scheduled) {
        this.scheduled = true
        setImmediate(() => this.flush())
      }
    })
  }

  private flush(): void {
    this.scheduled = false
    const batch = this.pending
    this.pending = []
    try {
      editTomlFile(this.file, (doc) => batch.forEach((p) => applyChange(doc, p.change)))
    } catch (e) {
      for (const p of batch) p.reject(e)
      return
    }
    for (const p of batch) p.resolve()
  }
}
