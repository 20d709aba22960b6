/**
 * Readers see the catalog as of the last commit: a table or column the writer adds inside an
 * open transaction is invisible to queries until COMMIT and `publish`, and a rollback's reload
 * forgets it.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { Catalog } from '../../../src/workspace/store/catalog.js'
import { Db } from '../../../src/workspace/store/db.js'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-catalog-'))
after(() => fs.rmSync(dir, { recursive: true, force: true }))
const WS = 'wksp_c'
const names = (c: Catalog) => c.table(WS, 'M::m')?.columns.map((x) => x.name)

test('a table and a column appear to readers only after their transaction commits', async () => {
  const db = await Db.open({ dir, memoryLimit: 256 * 1024 * 1024, threads: 1 })
  const catalog = new Catalog()
  const reload = () =>
    db.exclusive((con) => catalog.load(async (sql) => (await con.runAndReadAll(sql)).getRows()))
  try {
    await reload()
    const v = { name: 'v', kind: 'field' as const, type: 'DOUBLE' as const }
    const host = { name: 'host', kind: 'tag' as const, type: 'VARCHAR' as const }
    await db.exclusive(async (con) => {
      await con.run('BEGIN TRANSACTION')
      await catalog.ensure(con, WS, 'M::m', [v], true)
      assert.equal(catalog.table(WS, 'M::m'), undefined)
      assert.deepEqual(catalog.tableNames(WS), [])
      await con.run('COMMIT')
      catalog.publish()
    })
    assert.deepEqual(names(catalog), ['v'])
    await db.exclusive(async (con) => {
      await con.run('BEGIN TRANSACTION')
      await catalog.ensure(con, WS, 'M::m', [v, host], true)
      assert.deepEqual(names(catalog), ['v'])
      await con.run('ROLLBACK')
    })
    await reload()
    assert.deepEqual(names(catalog), ['v'])
    await db.exclusive(async (con) => {
      await con.run('BEGIN TRANSACTION')
      await catalog.ensure(con, WS, 'M::m', [host], true)
      await con.run('COMMIT')
      catalog.publish()
    })
    assert.deepEqual(names(catalog), ['v', 'host'])
  } finally {
    await db.close()
  }
})
