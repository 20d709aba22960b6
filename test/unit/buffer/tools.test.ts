/**
 * `ferry buffer inspect | verify [--repair]`: inspect and plain verify change nothing (a
 * damaged record is counted, not dropped); verify exits 1 on damage; --repair drops it; a
 * mistyped --path is an error, not a new empty buffer.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { DiskBuffer } from '../../../src/buffer/disk/disk-buffer.js'
import { inspectBuffer } from '../../../src/buffer/disk/inspect.js'
import { FerryError } from '../../../src/errors.js'

const MAIN = new URL('../../../src/main.ts', import.meta.url).pathname
const NO_EVENTS = {
  committed() {},
  pointsDropped() {},
  recordDamaged() {},
  storageFailed() {},
  recordsLost() {},
}

/** A buffer of three records, the second damaged. */
async function damagedBuffer(): Promise<string> {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-tools-')), 'buffer')
  const opts = { path: dir, durability: 'sync', maxBytesPerCategory: 1 << 30, minFreeDisk: 0 }
  const buf = new DiskBuffer({ ...opts, durability: 'sync', whenFull: 'reject' }, NO_EVENTS)
  await buf.start()
  for (const m of ['P', 'Q', 'R'])
    await buf.push({
      category: 'metric',
      payload: Buffer.from(m.repeat(200)),
      points: 2,
      receivedAt: Date.now(),
      input: 'test',
    })
  await buf.shutdown()
  const file = path.join(dir, 'data.mdb')
  const bytes = fs.readFileSync(file)
  const needle = Buffer.from('Q'.repeat(200))
  for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + 1))
    bytes[at + 100] ^= 0xff
  fs.writeFileSync(file, bytes)
  return dir
}

const digest = (dir: string) =>
  crypto
    .createHash('sha256')
    .update(fs.readFileSync(path.join(dir, 'data.mdb')))
    .digest('hex')

function ferry(...args: string[]) {
  const r = spawnSync(process.execPath, [...process.execArgv, MAIN, ...args], { encoding: 'utf8' })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

test('inspect reads a damaged buffer without changing a byte', async () => {
  const dir = await damagedBuffer()
  const before = digest(dir)
  const r = inspectBuffer(dir)
  assert.equal(r.damaged, 1)
  assert.deepEqual(
    r.categories.filter((c) => c.batches > 0).map((c) => [c.category, c.batches, c.points]),
    [['metric', 2, 4]],
  )
  assert.equal(r.deadLetters, 0)
  assert.equal(digest(dir), before)
  assert.equal(inspectBuffer(dir).damaged, 1, 'the damaged record is still there')
})

test('inspect of a path that holds no buffer is an error and creates nothing', () => {
  const dir = path.join(os.tmpdir(), `ferry-no-buffer-${process.pid}`)
  assert.throws(
    () => inspectBuffer(dir),
    (e) => e instanceof FerryError && e.message === `cannot read buffer ${dir}: no such buffer`,
  )
  assert.equal(fs.existsSync(dir), false)
})

test('verify exits 1 on damage and changes nothing; verify --repair drops it', async () => {
  const dir = await damagedBuffer()
  const before = digest(dir)
  const check = ferry('buffer', 'verify', '--path', dir, '--json')
  assert.equal(check.status, 1, check.stderr)
  assert.equal(JSON.parse(check.stdout).damaged, 1)
  assert.equal(digest(dir), before)
  const repair = ferry('buffer', 'verify', '--repair', '--path', dir, '--json')
  assert.equal(repair.status, 0, repair.stderr)
  assert.equal(JSON.parse(repair.stdout).damaged, 1)
  assert.equal(inspectBuffer(dir).damaged, 0)
})
