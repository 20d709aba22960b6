/**
 * The package ids and content fingerprints of stored bodies, in `<prefix>_meta.packages`
 * (shared by every instance), as the dedupe judge (../dedupe.ts) reads and writes them. A
 * record is written after the body's rows (residual.ts says what that leaves open).
 */
import type { Category } from '../../../shared/category.js'
import { dedupeQueries } from '../dedupe.js'
import type { PackageRecord } from '../packages.js'
import type { WriteRequest } from '../write-request.js'
import { META_TABLES } from './meta-ddl.js'
import type { MetaTables } from './meta-tables.js'

const PACKAGES = META_TABLES.packages

export class PackageLog {
  constructor(
    private readonly meta: MetaTables,
    private readonly windowMs: number,
  ) {}

  /** The stored bodies within the window with the request's id or (by content) fingerprint. */
  async seen(req: WriteRequest, byContent: boolean): Promise<PackageRecord[]> {
    const [q] = dedupeQueries([req], byContent)
    if (!q.pkgIds.length && !q.fingerprints.length) return []
    const rows = await this.meta.select(
      PACKAGES,
      'pkg_id, category, fingerprint',
      "workspace_id = $1 AND seen_at >= $2 AND ((pkg_id = $3 AND pkg_id != '') OR (fingerprint = $4 AND fingerprint != ''))",
      [req.workspaceId, Date.now() - this.windowMs, q.pkgIds[0] ?? '', q.fingerprints[0] ?? ''],
    )
    return (rows as string[][]).map(([pkgId, category, fp]) => ({
      workspaceId: req.workspaceId,
      pkgId,
      category: (category || null) as Category | null,
      fingerprint: fp || null,
    }))
  }

  put(rec: PackageRecord): Promise<void> {
    const row = [rec.workspaceId, rec.pkgId, rec.category ?? '', rec.fingerprint ?? '', Date.now()]
    return this.meta.put(PACKAGES, [row])
  }
}
