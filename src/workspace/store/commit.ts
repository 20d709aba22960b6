/**
 * One transaction of the writer: skips bodies whose package id is already stored, appends the
 * others' column batches and records their ids, then commits. After a failure everything is
 * rolled back and the catalog mirror reloaded, so memory never describes what was undone.
 */
import type { DuckDBConnection } from '@duckdb/node-api'
import type { Catalog } from './catalog.js'
import { schemaName } from './names.js'
import { recordPackages, seenPackages, type PackageRef } from './packages.js'
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
    const withIds = batch.filter((r): r is WriteRequest & PackageRef => r.pkgId !== null)
    const seen = await seenPackages(con, withIds)
    const stored: PackageRef[] = []
    for (const req of batch) {
      const key = `${req.workspaceId}/${req.pkgId}`
      if (req.pkgId && seen.has(key)) {
        results.push({ stored: 0, duplicate: true })
        continue
      }
      if (req.pkgId) {
        seen.add(key)
        stored.push({ workspaceId: req.workspaceId, pkgId: req.pkgId })
      }
      await store(con, catalog, req)
      results.push({ stored: req.points, duplicate: false })
    }
    await recordPackages(con, stored)
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
}
