/**
 * The points copy of `ferry workspace migrate` through the StorageEngine doors, from one DuckDB
 * engine (metrics in the series layout) to another: batches never split the rows of one
 * instant, even when more rows share it than a batch holds; every row and value arrives; a
 * second copy stores nothing (every batch is answered duplicate by its package id).
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { copyTable } from '../../../src/workspace/migrate/points.js'
import { openTestEngine } from '../../helpers/duckdb-engine.js'
import { request } from './engine-contract.js'

const WS = 'wksp_contract'

test('copies a table in batches cut between instants; a second copy stores nothing', async () => {
  const dirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-migrate-')))
  const source = await openTestEngine(dirs[0], ['metric'])
  const target = await openTestEngine(dirs[1])
  try {
    // Five rows at instant 1000 (more than a batch of 3), then one row each at 2000..2006.
    const lines = [0, 1, 2, 3, 4].map((i) => `cpu,host=h${i} v=${i},ok=true 1000`)
    for (let i = 0; i < 7; i++)
      lines.push(`cpu,host=h${i % 2},dc=x v=${10 + i},s="t${i}" ${2000 + i}`)
    await source.ingest(request(lines.join('\n'), null))
    const first = await copyTable(source, target, WS, 'M::cpu', 3)
    assert.deepEqual(first, { workspace: WS, table: 'M::cpu', rows: 12, stored: 12, batches: 4 })
    const again = await copyTable(source, target, WS, 'M::cpu', 3)
    assert.deepEqual(again, { ...first, stored: 0 })
    const read = async (e: typeof source) =>
      (
        await e.query(
          `SELECT time, host, dc, v, ok, s FROM ${e.tableRef(WS, 'M::cpu')} ORDER BY time, host`,
        )
      ).rows
    assert.deepEqual(await read(target), await read(source))
    assert.equal((await read(target)).length, 12)
    assert.deepEqual(
      target.catalog.table(WS, 'M::cpu')!.columns.map((c) => [c.name, c.kind, c.type]),
      source.catalog.table(WS, 'M::cpu')!.columns.map((c) => [c.name, c.kind, c.type]),
    )
  } finally {
    await source.close()
    await target.close()
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
  }
})
