/**
 * Damage to the buffer file, and what a salvage gets back: flipped bytes, torn (zeroed) pages,
 * truncation at several offsets and a file emptied. The oracle is independent of the scanner:
 * a record is intact when its exact bytes are still somewhere in the damaged file. Salvage must
 * recover every intact record that was not yet delivered, and account for the rest as lost.
 */
import assert from 'node:assert/strict'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { DiskBuffer } from '../../../src/buffer/disk/disk-buffer.js'
import { encodeRecord } from '../../../src/buffer/disk/record.js'
import { salvageBuffer } from '../../../src/buffer/disk/salvage.js'
import type { StoredBatch } from '../../../src/buffer/buffer.js'
import { FerryError } from '../../../src/errors.js'

const quiet = {
  committed() {},
  pointsDropped() {},
  recordDamaged() {},
  storageFailed() {},
  recordsLost() {},
}

function buffer(dir: string): DiskBuffer {
  const o = { durability: 'sync' as const, maxBytesPerCategory: 1 << 30, minFreeDisk: 0 }
  return new DiskBuffer({ path: dir, whenFull: 'reject', ...o }, quiet)
}

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-salv-'))

/** 40 records, a third of them larger than a page; the first 5 metric ones delivered. */
async function filled(): Promise<{ dir: string; records: StoredBatch[] }> {
  const dir = tmp()
  const buf = buffer(dir)
  await buf.start()
  for (let i = 0; i < 40; i++) {
    const size = i % 3 === 0 ? 40_000 + i : 300 + i
    await buf.push({
      category: i % 4 === 0 ? 'logging' : 'metric',
      payload: crypto.randomBytes(size),
      points: 1 + (i % 5),
      input: 'test',
      receivedAt: Date.now(),
    })
  }
  const records = [...buf.read('metric', 0, 1 << 30), ...buf.read('logging', 0, 1 << 30)]
  // Delivered as the uploader does it: the cursor moves, then what it passed is pruned.
  const cursor = records.filter((r) => r.category === 'metric')[4].seq
  await buf.setCursor('up:metric', cursor)
  await buf.prune('metric', cursor)
  await buf.shutdown()
  return { dir, records }
}

function intact(file: string, records: StoredBatch[]): Set<number> {
  const bytes = fs.readFileSync(file)
  return new Set(records.filter((r) => bytes.includes(encodeRecord(r, r.seq))).map((r) => r.seq))
}

async function check(damage: (file: string) => void) {
  const { dir, records } = await filled()
  const file = path.join(dir, 'data.mdb')
  damage(file)
  const cursor = records.filter((r) => r.category === 'metric')[4].seq
  const undelivered = records.filter((r) => r.category !== 'metric' || r.seq > cursor)
  const expected = intact(file, undelivered)
  const out = tmp()
  const report = await salvageBuffer(dir, out)
  const back = buffer(out)
  await back.start()
  const got = [...back.read('metric', 0, 1 << 30), ...back.read('logging', 0, 1 << 30)]
  assert.deepEqual(new Set(got.map((r) => r.seq)), expected)
  for (const r of got) {
    const orig = records.find((o) => o.seq === r.seq)!
    assert.deepEqual(Buffer.from(r.payload), Buffer.from(orig.payload))
  }
  const lost = undelivered.filter((r) => !expected.has(r.seq))
  const lostRecords = Object.values(report.lost).reduce((n, c) => n + c.records, 0)
  assert.equal(lostRecords, lost.length, 'every record not recovered is accounted as lost')
  assert.equal(back.id, report.identity)
  await back.shutdown()
  return { expected, lost }
}

test('truncation at several offsets recovers every intact record', async () => {
  for (const fraction of [0.1, 0.35, 0.6, 0.85]) {
    await check((file) => fs.truncateSync(file, Math.floor(fs.statSync(file).size * fraction)))
  }
})

test('flipped bytes: every intact record is recovered, each damaged one counted', async () => {
  for (const seed of [1, 2, 3]) {
    await check((file) => {
      const bytes = fs.readFileSync(file)
      for (let k = 0; k < 40; k++) bytes[(seed * 7919 * (k + 1) * 104_729) % bytes.length] ^= 0x5a
      fs.writeFileSync(file, bytes)
    })
  }
})

test('torn pages (meta pages included) recover what is intact', async () => {
  for (const pages of [
    [0, 1],
    [2, 5, 9],
    [1, 3, 4, 12],
  ]) {
    await check((file) => {
      const bytes = fs.readFileSync(file)
      for (const p of pages) bytes.fill(0, p * 16384, (p + 1) * 16384)
      fs.writeFileSync(file, bytes)
    })
  }
})

test('a file emptied: the start refuses it, and the salvage counts everything lost', async () => {
  const { dir, records } = await filled()
  fs.truncateSync(path.join(dir, 'data.mdb'), 0)
  await assert.rejects(buffer(dir).start(), (e: unknown) => {
    assert.ok(e instanceof FerryError)
    assert.equal(e.code, 'bufferDamaged')
    return true
  })
  const report = await salvageBuffer(dir, tmp())
  assert.deepEqual(report.recovered, {})
  const lost = Object.values(report.lost).reduce((n, c) => n + c.records, 0)
  assert.equal(lost, records.length - 5, 'all but the five delivered')
})
