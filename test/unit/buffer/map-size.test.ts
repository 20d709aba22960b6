/**
 * The disk buffer maps its file once, at a size set from its capacity: as the file grows no
 * second mapping appears, so each touched page is resident (and counted in RSS) once.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { DiskBuffer } from '../../../src/buffer/disk/disk-buffer.js'
import { mapSizeFor } from '../../../src/buffer/disk/map-size.js'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-map-size-'))
after(() => fs.rmSync(dir, { recursive: true, force: true }))

/** Mappings of this process's files under `dir` named data.mdb. */
function mappings(): number {
  const maps = fs.readFileSync('/proc/self/maps', 'utf8').split('\n')
  return maps.filter((l) => l.includes(dir) && l.endsWith('/data.mdb')).length
}

test('the map is twice the capacity and a GiB, in whole MiB', () => {
  const GiB = 1024 ** 3
  assert.equal(mapSizeFor({ maxBytesPerCategory: 2 * GiB, maxTotalBytes: 4 * GiB }), 9 * GiB)
  assert.equal(mapSizeFor({ maxBytesPerCategory: 0.3 * GiB }) % 2 ** 20, 0)
  assert.equal(mapSizeFor({ maxBytesPerCategory: 1, maxTotalBytes: 500 }), GiB + 2 ** 20)
})

test('the buffer file grows to tens of MB under one mapping', async () => {
  const events = {
    committed: () => {},
    pointsDropped: () => {},
    recordDamaged: () => {},
    storageFailed: () => {},
    recordsLost: () => {},
  }
  const opts = { path: dir, durability: 'async' as const, whenFull: 'reject' as const }
  const buf = new DiskBuffer({ ...opts, maxBytesPerCategory: 1 << 30, minFreeDisk: 0 }, events)
  await buf.start()
  try {
    const payload = Buffer.alloc(1 << 20, 7)
    for (let i = 0; i < 40; i++) {
      await buf.push({ category: 'metric', payload, points: 1, input: 't', receivedAt: i })
    }
    const size = fs.statSync(path.join(dir, 'data.mdb')).size
    assert.ok(size > 40 << 20, `file of ${size} bytes`)
    assert.equal(mappings(), 1)
  } finally {
    await buf.shutdown()
  }
})
