/**
 * DuckDB passes the storage engine contract, each case on a fresh database file; and a database
 * made by an earlier version opens.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { DuckDBInstance } from '@duckdb/node-api'
import { CATEGORY_NAMES, type Category } from '../../../src/shared/category.js'
import { DB_FILE } from '../../../src/workspace/store/db.js'
import { openTestEngine } from '../../helpers/duckdb-engine.js'
import { request, storageContract } from './engine-contract.js'
import { dedupeContract } from './engine-contract-dedupe.js'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-engine-'))
after(() => fs.rmSync(root, { recursive: true, force: true }))
let n = 0

const openEngine = (seriesCategories: Category[]) => () =>
  openTestEngine(path.join(root, String(n++)), seriesCategories)

storageContract('duckdb, flat tables', openEngine([]))
storageContract('duckdb, series layout', openEngine(CATEGORY_NAMES))
dedupeContract('duckdb', openEngine(CATEGORY_NAMES))

test('a database whose meta.packages has a primary key is rebuilt without it, ids kept; ids stored before fingerprints still dedupe', async () => {
  const dir = path.join(root, 'keyed')
  fs.mkdirSync(dir)
  const old = await DuckDBInstance.create(path.join(dir, DB_FILE))
  const con = await old.connect()
  await con.run('CREATE SCHEMA meta')
  await con.run(`CREATE TABLE meta.packages (
    workspace_id VARCHAR NOT NULL, pkg_id VARCHAR NOT NULL, seen_at BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, pkg_id))`)
  await con.run(`INSERT INTO meta.packages VALUES ('wksp_a', 'p1', ${Date.now()})`)
  con.closeSync()
  old.closeSync()
  const e = await openTestEngine(dir)
  try {
    const keys = await e.query(
      `SELECT count(*) FROM duckdb_constraints() WHERE table_name = 'packages'
       AND constraint_type = 'PRIMARY KEY'`,
    )
    assert.equal(Number(keys.rows[0][0]), 0)
    const text = `m v=1 ${Date.now()}000000`
    // p1 was stored with no fingerprint: whatever content comes under it is the same body.
    assert.deepEqual(await e.ingest(request(text, 'p1', 'metric', 'wksp_a')), {
      stored: 0,
      duplicate: true,
      dedupe: 'id',
    })
    assert.deepEqual(await e.ingest(request(text, 'p2', 'metric', 'wksp_a')), {
      stored: 1,
      duplicate: false,
    })
    const ids = await e.query(
      'SELECT pkg_id, category, fingerprint IS NULL FROM meta.packages ORDER BY pkg_id',
    )
    assert.deepEqual(ids.rows, [
      ['p1', null, true],
      ['p2', 'metric', false],
    ])
  } finally {
    await e.close()
  }
})
