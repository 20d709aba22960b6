/**
 * The database's memory and threads are what the config says: the defaults are sized for a
 * small host (256 MiB, 2 threads), and a configured value reaches DuckDB as set.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { loadConfig } from '../../../src/config/load.js'
import { Db } from '../../../src/workspace/store/db.js'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-db-limits-'))
after(() => fs.rmSync(dir, { recursive: true, force: true }))

async function settings(memoryLimit: number, threads: number, sub: string) {
  const db = await Db.open({ dir: path.join(dir, sub), memoryLimit, threads })
  try {
    const r = await db.query(
      "SELECT current_setting('memory_limit') AS m, current_setting('threads') AS t",
    )
    return r.rows[0]
  } finally {
    await db.close()
  }
}

test('the default config bounds the database to 256 MiB and 2 threads', async () => {
  const { config } = loadConfig('/nonexistent/ferry.conf', {})
  assert.equal(config.workspace.memory_limit, 256 * 1024 * 1024)
  assert.equal(config.workspace.threads, 2)
  const row = await settings(config.workspace.memory_limit, config.workspace.threads, 'a')
  assert.deepEqual(Object.values(row), ['256.0 MiB', 2n])
})

test('configured limits reach the database', async () => {
  const { config } = loadConfig('/nonexistent/ferry.conf', {
    ENV_WORKSPACE_MEMORY_LIMIT: '96MiB',
    ENV_WORKSPACE_THREADS: '1',
  })
  const row = await settings(config.workspace.memory_limit, config.workspace.threads, 'b')
  assert.deepEqual(Object.values(row), ['96.0 MiB', 1n])
})
