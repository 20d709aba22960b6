/**
 * `npm run bench:probe`: what the workspace's start probe costs on a large table, against
 * reading the table in full (`ferry workspace verify`). One points table shaped like the
 * series layout's (time, series id, 10 double fields) of BENCH_ROWS rows (10M), checkpointed;
 * then the start probe and the full read are timed on a fresh open each (after a first open
 * that warms the page cache, so both read from memory alike).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { Db, DB_FILE } from '../src/workspace/store/db.js'
import { probeDatabase } from '../src/workspace/store/probe.js'
import { verifyWorkspace } from '../src/workspace/verify.js'

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000)
const MEMORY = 512 * 1024 * 1024

async function fill(dir: string): Promise<void> {
  const inst = await DuckDBInstance.create(path.join(dir, DB_FILE))
  const con = await inst.connect()
  const fields = Array.from({ length: 10 }, (_, i) => `f${i} DOUBLE`).join(', ')
  const values = Array.from({ length: 10 }, (_, i) => `i * ${i + 1}.5 + random()`).join(', ')
  await con.run('CREATE SCHEMA w')
  await con.run(
    `CREATE TABLE w."M::cpu:points" (time BIGINT NOT NULL, _sid INTEGER NOT NULL, ${fields})`,
  )
  await con.run(
    `INSERT INTO w."M::cpu:points" SELECT i * 1000, i % 1000, ${values} FROM range(${ROWS}) r(i)`,
  )
  await con.run('CHECKPOINT')
  con.closeSync()
  inst.closeSync()
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = process.hrtime.bigint()
  await fn()
  return Number(process.hrtime.bigint() - t) / 1e6
}

async function probeOnce(dir: string): Promise<number> {
  const db = await Db.open({ dir, memoryLimit: MEMORY, threads: 0 })
  try {
    return await timed(() => probeDatabase(db))
  } finally {
    await db.close()
  }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-probe-bench-'))
try {
  await fill(dir)
  const size = fs.statSync(path.join(dir, DB_FILE)).size
  await verifyWorkspace(dir, MEMORY) // warm the page cache
  const probe = await probeOnce(dir)
  const full = await timed(() => verifyWorkspace(dir, MEMORY))
  const mb = (size / 1024 / 1024).toFixed(0)
  console.log(`table: ${ROWS.toLocaleString('en-US')} rows, database ${mb} MB`)
  console.log(`start probe: ${probe.toFixed(0)} ms`)
  console.log(`full read (verify): ${full.toFixed(0)} ms (${(full / probe).toFixed(1)}x the probe)`)
  console.log(`peak RSS: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`)
} finally {
  fs.rmSync(dir, { recursive: true, force: true })
}
