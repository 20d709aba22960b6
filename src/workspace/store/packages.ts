/**
 * Package ids (X-Pkg-Id) stored within the dedupe window, in `meta.packages`, so that a body
 * the agent re-sends is stored once. Only the writer's transaction reads and adds them, one at
 * a time, so the lookup before storing is what keeps them unique: the table has no key, since
 * an ART index over a day of ids grows to hundreds of MB that every checkpoint rewrites and
 * that must stay in memory (databases made with the key are rebuilt without it on open).
 */
import type { DuckDBConnection } from '@duckdb/node-api'

export interface PackageRef {
  workspaceId: string
  pkgId: string
}

/** Ids of `refs` already stored, as `workspace/pkg`; one lookup per workspace. */
export async function seenPackages(
  con: DuckDBConnection,
  refs: PackageRef[],
): Promise<Set<string>> {
  const byWorkspace = new Map<string, string[]>()
  for (const r of refs)
    byWorkspace.set(r.workspaceId, [...(byWorkspace.get(r.workspaceId) ?? []), r.pkgId])
  const seen = new Set<string>()
  for (const [ws, ids] of byWorkspace) {
    const list = ids.map((_, i) => `$${i + 2}`).join(', ')
    const r = await con.runAndReadAll(
      `SELECT pkg_id FROM meta.packages WHERE workspace_id = $1 AND pkg_id IN (${list})`,
      [ws, ...ids],
    )
    for (const [id] of r.getRows()) seen.add(`${ws}/${String(id)}`)
  }
  return seen
}

/** Records the ids of one transaction through one appender (cheaper than a statement each). */
export async function recordPackages(con: DuckDBConnection, refs: PackageRef[]): Promise<void> {
  if (!refs.length) return
  const app = await con.createAppender('packages', 'meta')
  try {
    const now = BigInt(Date.now())
    for (const r of refs) {
      app.appendVarchar(r.workspaceId)
      app.appendVarchar(r.pkgId)
      app.appendBigInt(now)
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
