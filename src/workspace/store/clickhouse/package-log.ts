/**
 * The package ids and content fingerprints of stored bodies, in `<prefix>_meta.packages`
 * (shared by every instance), as the dedupe judge (../dedupe.ts) reads and writes them. A
 * record is written after the body's rows (residual.ts says what that leaves open).
 *
 * Lookups and records of the bodies in flight together share round trips (coalesce.ts): one
 * SELECT answers several bodies' lookups, each getting exactly the records its own lookup
 * would have found (its workspace, and its id or its fingerprint); one INSERT writes several
 * bodies' records, and a failure fails each of them (each is then its own residual case).
 */
import type { Category } from '../../../shared/category.js'
import { dedupeQueries } from '../dedupe.js'
import type { PackageRecord } from '../packages.js'
import type { WriteRequest } from '../write-request.js'
import { Coalescer } from './coalesce.js'
import { META_TABLES } from './meta-ddl.js'
import type { MetaTables } from './meta-tables.js'
import { chString } from './sql.js'

const PACKAGES = META_TABLES.packages

/** What one body looks up: its workspace, its id and the fingerprint judged by content. */
interface Lookup {
  workspaceId: string
  pkgId: string
  fingerprint: string
}

type Row = [string, string, string, string]

export class PackageLog {
  private readonly lookups = new Coalescer<Lookup, PackageRecord[]>((l) => this.find(l))
  private readonly records = new Coalescer<PackageRecord, void>((r) => this.write(r))

  constructor(
    private readonly meta: MetaTables,
    private readonly windowMs: number,
  ) {}

  /** The stored bodies within the window with the request's id or (by content) fingerprint. */
  async seen(req: WriteRequest, byContent: boolean): Promise<PackageRecord[]> {
    const [q] = dedupeQueries([req], byContent)
    if (!q.pkgIds.length && !q.fingerprints.length) return []
    const lookup = {
      workspaceId: req.workspaceId,
      pkgId: q.pkgIds[0] ?? '',
      fingerprint: q.fingerprints[0] ?? '',
    }
    return this.lookups.call(lookup)
  }

  put(rec: PackageRecord): Promise<void> {
    return this.records.call(rec)
  }

  /** `workspace_id = w AND (pkg_id IN (...) OR fingerprint IN (...))` per workspace, ORed. */
  private static where(lookups: Lookup[]): string {
    const by = new Map<string, { ids: string[]; fps: string[] }>()
    for (const l of lookups) {
      let w = by.get(l.workspaceId)
      if (!w) by.set(l.workspaceId, (w = { ids: [], fps: [] }))
      if (l.pkgId) w.ids.push(chString(l.pkgId))
      if (l.fingerprint) w.fps.push(chString(l.fingerprint))
    }
    const list = (col: string, v: string[]) => (v.length ? `${col} IN (${v.join(', ')})` : '0')
    const each = [...by].map(
      ([ws, w]) =>
        `(workspace_id = ${chString(ws)} AND (${list('pkg_id', w.ids)} OR ${list('fingerprint', w.fps)}))`,
    )
    return each.join(' OR ')
  }

  private async find(lookups: Lookup[]): Promise<PackageRecord[][]> {
    const rows = (await this.meta.select(
      PACKAGES,
      'workspace_id, pkg_id, category, fingerprint',
      `seen_at >= $1 AND (${PackageLog.where(lookups)})`,
      [Date.now() - this.windowMs],
    )) as Row[]
    return lookups.map((l) =>
      rows
        .filter(
          ([ws, id, , fp]) =>
            ws === l.workspaceId &&
            ((l.pkgId !== '' && id === l.pkgId) || (l.fingerprint !== '' && fp === l.fingerprint)),
        )
        .map(([workspaceId, pkgId, category, fp]) => ({
          workspaceId,
          pkgId,
          category: (category || null) as Category | null,
          fingerprint: fp || null,
        })),
    )
  }

  private async write(recs: PackageRecord[]): Promise<void[]> {
    const now = Date.now()
    const rows = recs.map((r) => [
      r.workspaceId,
      r.pkgId,
      r.category ?? '',
      r.fingerprint ?? '',
      now,
    ])
    await this.meta.put(PACKAGES, rows)
    return recs.map(() => undefined)
  }
}
