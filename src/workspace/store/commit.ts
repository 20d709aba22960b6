/**
 * One transaction of the writer: skips bodies whose package id is already stored, appends the
 * others' column batches and records their ids, then commits. After a failure everything is
 * rolled back and the catalog mirror reloaded, so memory never describes what was undone.
 */
import type { DuckDBConnection } from '@duckdb/node-api'
import type { Catalog } from './catalog.js'
import { schemaName } from './names.js'
import { appendBatch } from './rows.js'
import type { WriteRequest, WriteResult } from './write-request.js'

export async function commitBatch(
  con: DuckDBConnection,
  catalog: Catalog,
  batch: WriteRequest[],
  prune: (con: DuckDBConnection) => Promise<void>,
): Promise<WriteResult[]> {
  await con.run('BEGIN TRANSACTION')
  try {
    const results: WriteResult[] = []
    const seen = await seenPackages(con, batch)
    for (const req of batch) {
      const key = `${req.workspaceId}/${req.pkgId}`
      if (req.pkgId && seen.has(key)) {
        results.push({ stored: 0, duplicate: true })
        continue
      }
      if (req.pkgId) seen.add(key)
      await store(con, catalog, req)
      results.push({ stored: req.points, duplicate: false })
    }
    await prune(con)
    await con.run('COMMIT')
    return results
  } catch (e) {
    await con.run('ROLLBACK').catch(() => undefined)
    await catalog.load(async (sql) => (await con.runAndReadAll(sql)).getRows())
    throw e
  }
}

async function store(con: DuckDBConnection, catalog: Catalog, req: WriteRequest): Promise<void> {
  for (const batch of req.tables) {
    const info = await catalog.ensure(con, req.workspaceId, batch.table, batch.columns)
    const app = await con.createAppender(info.phys, schemaName(req.workspaceId))
    try {
      appendBatch(app, info.columns, batch)
      app.flushSync()
    } finally {
      app.closeSync()
    }
  }
  if (req.pkgId)
    await con.run('INSERT INTO meta.packages VALUES ($1, $2, $3)', [
      req.workspaceId,
      req.pkgId,
      Date.now(),
    ])
}

/** Ids of this batch already stored, as `workspace/pkg`; one lookup per workspace. */
async function seenPackages(con: DuckDBConnection, batch: WriteRequest[]): Promise<Set<string>> {
  const byWorkspace = new Map<string, string[]>()
  for (const req of batch)
    if (req.pkgId)
      byWorkspace.set(req.workspaceId, [...(byWorkspace.get(req.workspaceId) ?? []), req.pkgId])
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
