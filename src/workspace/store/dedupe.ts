/**
 * Which bodies of a commit are duplicates, engine-neutral (every engine keeps the bodies of the
 * dedupe window somewhere and asks this the same questions):
 * - A body is a duplicate **by id** when its package id was stored for its workspace with the
 *   same content fingerprint (or with none: bodies stored before fingerprints were kept, or a
 *   caller that has none). The same id with other content is a different body under a reused
 *   id (two agents whose id generators collide): stored, and reported as `reusedId`.
 * - A body is a duplicate **by content** (when `byContent` is on) when a body with the same
 *   fingerprint was stored for the same workspace and category, under whatever id: the
 *   reference agent re-sends a body from its WAL or fail cache under a new id each time. Only
 *   bodies whose every point carried its own time count (`timed`): points stamped on arrival
 *   differ between two sends, so two such bodies are never the same points.
 * The judge remembers what it lets through, so the same body twice in one commit is stored once.
 */
import type { PackageQuery, PackageRecord } from './packages.js'
import type { WriteRequest } from './write-request.js'

export type Verdict = { store: true; reusedId: boolean } | { store: false; by: 'id' | 'content' }

const idKey = (ws: string, pkgId: string) => `${ws}\n${pkgId}`
const contentKey = (ws: string, category: string, fp: string) => `${ws}\n${category}\n${fp}`

/** The lookups a commit needs: each workspace's ids, and its fingerprints when by content. */
export function dedupeQueries(batch: WriteRequest[], byContent: boolean): PackageQuery[] {
  const by = new Map<string, PackageQuery>()
  for (const r of batch) {
    let q = by.get(r.workspaceId)
    if (!q)
      by.set(r.workspaceId, (q = { workspaceId: r.workspaceId, pkgIds: [], fingerprints: [] }))
    if (r.pkgId) q.pkgIds.push(r.pkgId)
    if (byContent && r.timed && r.fingerprint) q.fingerprints.push(r.fingerprint)
  }
  return [...by.values()]
}

export class DedupeJudge {
  /** Id -> the fingerprints stored under it (null: unknown content). */
  private readonly ids = new Map<string, Set<string | null>>()
  private readonly contents = new Set<string>()

  constructor(
    found: PackageRecord[],
    private readonly byContent: boolean,
  ) {
    for (const r of found) this.remember(r)
  }

  judge(req: WriteRequest): Verdict {
    const under = req.pkgId ? this.ids.get(idKey(req.workspaceId, req.pkgId)) : undefined
    const fp = req.fingerprint ?? null
    if (under && (under.has(null) || fp === null || under.has(fp)))
      return { store: false, by: 'id' }
    if (
      this.byContent &&
      req.timed &&
      fp &&
      this.contents.has(contentKey(req.workspaceId, req.category, fp))
    )
      return { store: false, by: 'content' }
    return { store: true, reusedId: under !== undefined }
  }

  /** What to record for a body being stored, remembered for the rest of the commit. */
  stored(req: WriteRequest): PackageRecord | null {
    if (!req.pkgId && !(req.timed && req.fingerprint)) return null
    const rec: PackageRecord = {
      workspaceId: req.workspaceId,
      pkgId: req.pkgId ?? '',
      category: req.category,
      fingerprint: req.fingerprint ?? null,
    }
    this.remember(rec)
    return rec
  }

  private remember(r: PackageRecord): void {
    if (r.pkgId) {
      const k = idKey(r.workspaceId, r.pkgId)
      const set = this.ids.get(k) ?? new Set()
      this.ids.set(k, set.add(r.fingerprint))
    }
    if (r.fingerprint && r.category)
      this.contents.add(contentKey(r.workspaceId, r.category, r.fingerprint))
  }
}
