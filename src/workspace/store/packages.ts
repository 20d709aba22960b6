/**
 * The bodies stored within the dedupe window, in `meta.packages`: package id (X-Pkg-Id, ''
 * when the body had none), category and content fingerprint, so that a re-sent body is stored
 * once (dedupe.ts decides). Only the writer's transaction reads and adds them, so the lookup
 * before storing is what keeps them unique: the table has no key, since an ART index over a
 * day of ids grows to hundreds of MB that every checkpoint rewrites and that must stay in
 * memory (databases made with the key are rebuilt without it on open).
 */
import type { DuckDBConnection } from '@duckdb/node-api'
import type { Category } from '../../shared/category.js'

/** One stored body as the dedupe window remembers it. */
export interface PackageRecord {
  workspaceId: string
  /** '' when the body came without an id. */
  pkgId: string
  category: Category | null
  /** null for bodies stored before fingerprints were kept. */
  fingerprint: string | null
}

/** What the lookup asks for: ids and fingerprints of one workspace. */
export interface PackageQuery {
  workspaceId: string
  pkgIds: string[]
  fingerprints: string[]
}

function placeholders(from: number, n: number): string {
  return Array.from({ length: n }, (_, i) => `$${from + i}`).join(', ') || 'NULL'
}

/** The stored bodies of each workspace whose id or fingerprint is asked for; one scan each. */
export async function findPackages(
  con: DuckDBConnection,
  queries: PackageQuery[],
): Promise<PackageRecord[]> {
  const found: PackageRecord[] = []
  for (const q of queries) {
    if (!q.pkgIds.length && !q.fingerprints.length) continue
    const ids = placeholders(2, q.pkgIds.length)
    const fps = placeholders(2 + q.pkgIds.length, q.fingerprints.length)
    const r = await con.runAndReadAll(
      `SELECT pkg_id, category, fingerprint FROM meta.packages
       WHERE workspace_id = $1 AND (pkg_id IN (${ids}) OR fingerprint IN (${fps}))`,
      [q.workspaceId, ...q.pkgIds, ...q.fingerprints],
    )
    for (const [pkgId, category, fingerprint] of r.getRows())
      found.push({
        workspaceId: q.workspaceId,
        pkgId: String(pkgId),
        category: category === null ? null : (String(category) as Category),
        fingerprint: fingerprint === null ? null : String(fingerprint),
      })
  }
  return found
}

/** Records the bodies of one transaction through one appender (cheaper than a statement each). */
export async function recordPackages(
  con: DuckDBConnection,
  records: PackageRecord[],
): Promise<void> {
  if (!records.length) return
  const app = await con.createAppender('packages', 'meta')
  try {
    const now = BigInt(Date.now())
    for (const r of records) {
      app.appendVarchar(r.workspaceId)
      app.appendVarchar(r.pkgId)
      app.appendBigInt(now)
      if (r.category === null) app.appendNull()
      else app.appendVarchar(r.category)
      if (r.fingerprint === null) app.appendNull()
      else app.appendVarchar(r.fingerprint)
      app.endRow()
    }
    app.flushSync()
  } finally {
    app.closeSync()
  }
}

/** Rebuilds a `meta.packages` made with a primary key as the same rows without it. */
export async function dropPackagesKey(con: DuckDBConnection): Promise<void> {
  const r = await con.runAndReadAll(
    `SELECT count(*) FROM duckdb_constraints()
     WHERE schema_name = 'meta' AND table_name = 'packages' AND constraint_type = 'PRIMARY KEY'`,
  )
  if (Number(r.getRows()[0][0]) === 0) return
  await con.run('BEGIN TRANSACTION')
  try {
    await con.run('CREATE TABLE meta.packages_rebuilt AS SELECT * FROM meta.packages')
    await con.run('DROP TABLE meta.packages')
    await con.run('ALTER TABLE meta.packages_rebuilt RENAME TO packages')
    await con.run('COMMIT')
  } catch (e) {
    await con.run('ROLLBACK').catch(() => undefined)
    throw e
  }
}
