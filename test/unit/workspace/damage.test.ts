/**
 * Damage met after the start: DuckDB's texts for a damaged file are recognised (and nothing
 * else), `Db` tells its listener of every query or write failing on them and still throws, and
 * the workspace's event counts every failure but logs each message once per minute.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { Registry } from 'prom-client'
import { FerryError } from '../../../src/errors.js'
import { createLogger } from '../../../src/telemetry/logger.js'
import { DAMAGE_LOG_EVERY_MS, WorkspaceEvents } from '../../../src/workspace/events.js'
import { damageMessage, isLockMessage } from '../../../src/workspace/store/damage.js'
import { Db } from '../../../src/workspace/store/db.js'
import { captureLog } from '../../helpers/log-capture.js'

const CHECKSUM =
  'IO Error: Corrupt database file: computed checksum 5170698603451370701 does not match stored checksum 8022652260065721999 in block at location 274432'
const TRUNCATED =
  'IO Error: Could not read enough bytes from file "ferry.duckdb": attempted to read 262144 bytes from location 8400896'
const INVALIDATED =
  'FATAL Error: Failed: database has been invalidated because of a previous fatal error. The database must be restarted prior to being used again.'

test("DuckDB's damage texts are recognised, with their first line", () => {
  assert.equal(damageMessage(new Error(CHECKSUM)), CHECKSUM)
  assert.equal(damageMessage(new Error(TRUNCATED)), TRUNCATED)
  assert.equal(damageMessage(new Error(`${INVALIDATED}\nOriginal error: "x"`)), INVALIDATED)
  const wrapped = new FerryError('storageFailed', 'cannot store points', {
    cause: new Error(CHECKSUM),
  })
  assert.equal(damageMessage(wrapped), CHECKSUM)
})

test("checksum damage names a block, and is no lock: only DuckDB's lock text is", () => {
  assert.equal(isLockMessage(CHECKSUM), false)
  assert.equal(isLockMessage(TRUNCATED), false)
  const locked =
    'IO Error: Could not set lock on file "/d/ferry.duckdb": Conflicting lock is held in /usr/bin/node (PID 42)'
  assert.equal(isLockMessage(locked), true)
})

test('errors of a statement or of the moment are not damage', () => {
  for (const m of [
    'Catalog Error: Column with name Host already exists!',
    'Out of Memory Error: could not allocate block of size 256.0 KiB',
    'INTERRUPT Error: Interrupted!',
    'Parser Error: syntax error at or near "FROM"',
  ])
    assert.equal(damageMessage(new Error(m)), null, m)
  assert.equal(damageMessage('Corrupt database file'), null)
  assert.equal(damageMessage(undefined), null)
})

async function withDb(fn: (db: Db) => Promise<void>): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-damage-'))
  const db = await Db.open({ dir, memoryLimit: 256 * 1024 * 1024, threads: 1 })
  try {
    await fn(db)
  } finally {
    await db.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

// DuckDB's error() raises an error with any text: the same path a damaged block takes.
const raise = (text: string) => `SELECT error('${text.replace(/'/g, "''")}')`

test('Db tells its listener of queries and writes failing on damage, and still throws', () =>
  withDb(async (db) => {
    const heard: string[] = []
    db.onDamage = (m) => heard.push(m)
    await assert.rejects(db.query(raise(CHECKSUM)), { message: `Invalid Input Error: ${CHECKSUM}` })
    await assert.rejects(
      db.exclusive((con) => con.run(raise(TRUNCATED))),
      { message: `Invalid Input Error: ${TRUNCATED}` },
    )
    await assert.rejects(db.execute(raise(INVALIDATED)))
    await assert.rejects(db.query('SELECT * FROM missing'), /Catalog Error/)
    await assert.rejects(db.exclusive(() => Promise.reject(new Error('not damage'))))
    assert.deepEqual(heard, [
      `Invalid Input Error: ${CHECKSUM}`,
      `Invalid Input Error: ${TRUNCATED}`,
      `Invalid Input Error: ${INVALIDATED}`,
    ])
    // The write queue goes on after a failure.
    assert.deepEqual((await db.query('SELECT 42')).rows, [[42]])
    assert.equal(await db.exclusive(async () => 7), 7)
  }))

test('damage is counted every time and logged once per message per minute', async () => {
  const { lines, destination } = captureLog()
  const registry = new Registry()
  const events = new WorkspaceEvents(createLogger('info', { destination }), registry)
  const t0 = 1_000_000
  for (let i = 0; i < 100; i++) events.damaged(CHECKSUM, t0 + i)
  events.damaged(TRUNCATED, t0 + 200)
  events.damaged(CHECKSUM, t0 + DAMAGE_LOG_EVERY_MS)
  await new Promise((r) => setImmediate(r))
  const logged = lines.map(({ level, event, reason, repeated, msg }) => ({
    level,
    event,
    reason,
    repeated,
    msg,
  }))
  const line = (reason: string, repeated: number) => ({
    level: 'error',
    event: 'workspace_damaged',
    reason,
    repeated,
    msg: `the workspace database is damaged (${reason}); run ferry workspace verify, then ferry workspace repair`,
  })
  assert.deepEqual(logged, [line(CHECKSUM, 0), line(TRUNCATED, 0), line(CHECKSUM, 99)])
  const text = await registry.getSingleMetricAsString('ferry_workspace_damage_errors_total')
  assert.ok(text.endsWith('\nferry_workspace_damage_errors_total 102'), text)
})
