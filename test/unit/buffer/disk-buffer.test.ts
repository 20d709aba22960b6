/**
 * The disk buffer on a real disk: commit, read in order, prune, capacity policies, and damage:
 * a flipped byte inside a record (found at the start, or by a read while running), and a
 * truncated file.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import type { Batch } from '../../../src/buffer/buffer.js'
import { DiskBuffer } from '../../../src/buffer/disk/disk-buffer.js'
import { probeBuffer } from '../../../src/buffer/disk/probe.js'
import type { DiskBufferOptions } from '../../../src/buffer/disk/types.js'
import { FerryError } from '../../../src/errors.js'

function newBuffer(dir: string, o: Partial<DiskBufferOptions> = {}) {
  const events = { committed: 0, dropped: [] as [string, string, number][], damaged: 0 }
  const buf = new DiskBuffer(
    {
      path: dir,
      durability: 'sync',
      maxBytesPerCategory: 1 << 30,
      whenFull: 'reject',
      minFreeDisk: 0,
      ...o,
    },
    {
      committed: () => void events.committed++,
      pointsDropped: (c, r, n) => void events.dropped.push([c, r, n]),
      recordDamaged: () => void events.damaged++,
      storageFailed: () => undefined,
      recordsLost: () => undefined,
    },
  )
  return { buf, events }
}

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-buf-'))
const batch = (marker: string, points = 1): Batch => ({
  category: 'metric',
  payload: Buffer.from(marker.repeat(200)),
  points,
  input: 'test',
  receivedAt: Date.now(),
})

test('records come back in order; prune removes what every cursor passed', async () => {
  const dir = tmp()
  const { buf } = newBuffer(dir)
  await buf.start()
  for (const m of ['A', 'B', 'C']) await buf.push(batch(m, 2))
  const all = buf.read('metric', 0, 1 << 20)
  assert.deepEqual(
    all.map((b) => Buffer.from(b.payload).toString()[0]),
    ['A', 'B', 'C'],
  )
  assert.deepEqual(buf.stats(), { batches: 3, bytes: buf.stats().bytes, points: 6 })
  await buf.prune('metric', all[1].seq)
  assert.deepEqual(
    buf.read('metric', 0, 1 << 20).map((b) => b.seq),
    [all[2].seq],
  )
  await buf.setCursor('cursor:x:metric', all[2].seq)
  await buf.shutdown()
  const again = newBuffer(dir).buf
  await again.start()
  await again.push(batch('D'))
  // Even with earlier records pruned, a new record sorts after every cursor.
  assert.ok(again.read('metric', again.getCursor('cursor:x:metric'), 1 << 20).length === 1)
  await again.shutdown()
})

test('when full: reject keeps everything, drop_oldest and drop_newest count their drops', async () => {
  const small = { maxBytesPerCategory: 400 } // one ~230-byte record fits, two do not
  const r = newBuffer(tmp(), small)
  await r.buf.start()
  await r.buf.push(batch('A'))
  await assert.rejects(
    r.buf.push(batch('B')),
    (e: unknown) => e instanceof FerryError && e.code === 'bufferFull',
  )
  await r.buf.shutdown()
  const o = newBuffer(tmp(), { ...small, whenFull: 'drop_oldest' })
  await o.buf.start()
  await o.buf.push(batch('A', 3))
  await o.buf.push(batch('B', 4))
  assert.deepEqual(o.events.dropped, [['metric', 'buffer_full_drop_oldest', 3]])
  assert.deepEqual(
    o.buf.read('metric', 0, 1 << 20).map((b) => b.points),
    [4],
  )
  await o.buf.shutdown()
  const n = newBuffer(tmp(), { ...small, whenFull: 'drop_newest' })
  await n.buf.start()
  await n.buf.push(batch('A', 3))
  await n.buf.push(batch('B', 4))
  assert.deepEqual(n.events.dropped, [['metric', 'buffer_full_drop_newest', 4]])
  await n.buf.shutdown()
})

test('a flipped byte inside a record: that record is skipped and counted, the rest kept', async () => {
  const dir = tmp()
  const { buf } = newBuffer(dir)
  await buf.start()
  for (const m of ['P', 'Q', 'R']) await buf.push(batch(m))
  await buf.shutdown()
  const file = path.join(dir, 'data.mdb')
  const bytes = fs.readFileSync(file)
  // LMDB is copy-on-write, so stale copies may exist too: damage every copy of record Q.
  const needle = Buffer.from('Q'.repeat(200))
  let flipped = 0
  for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + 1)) {
    bytes[at + 100] ^= 0xff
    flipped++
  }
  assert.ok(flipped > 0)
  fs.writeFileSync(file, bytes)
  const b2 = newBuffer(dir)
  await b2.buf.start()
  assert.equal(b2.events.damaged, 1)
  assert.deepEqual(
    b2.buf.read('metric', 0, 1 << 20).map((b) => Buffer.from(b.payload).toString()[0]),
    ['P', 'R'],
  )
  await b2.buf.shutdown()
})

test('a record damaged while running: reads skip and count it, the rest read whole into one buffer', async () => {
  const dir = tmp()
  const { buf, events } = newBuffer(dir)
  await buf.start()
  // R spans LMDB overflow pages (read in place from the map), the others sit in leaf pages.
  const big = { ...batch('R'), payload: Buffer.from('R'.repeat(60_000)) }
  for (const b of [batch('P'), batch('Q'), big, batch('S')]) await buf.push(b)
  const fd = fs.openSync(path.join(dir, 'data.mdb'), 'r+')
  const bytes = fs.readFileSync(path.join(dir, 'data.mdb'))
  const needle = Buffer.from('Q'.repeat(200))
  for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + 1))
    fs.writeSync(fd, Buffer.from([bytes[at + 100] ^ 0xff]), 0, 1, at + 100)
  fs.closeSync(fd)
  const read = buf.read('metric', 0, 1 << 20)
  assert.equal(events.damaged, 1)
  assert.deepEqual(
    read.map((b) => [b.seq, Buffer.from(b.payload).toString()]),
    [
      [1, 'P'.repeat(200)],
      [3, 'R'.repeat(60_000)],
      [4, 'S'.repeat(200)],
    ],
  )
  // One copy per window: the payloads follow each other in one buffer.
  for (let i = 1; i < read.length; i++) {
    assert.equal(read[i].payload.buffer, read[0].payload.buffer)
    assert.equal(
      read[i].payload.byteOffset,
      read[i - 1].payload.byteOffset + read[i - 1].payload.length,
    )
  }
  // The byte limit is judged on the key before a record is checked, and a damaged record
  // does not count toward it, as before: P alone; then past Q (counted again), R alone.
  assert.deepEqual(
    buf.read('metric', 0, 300).map((b) => b.seq),
    [1],
  )
  assert.deepEqual(
    buf.read('metric', 1, 300).map((b) => b.seq),
    [3],
  )
  assert.equal(events.damaged, 2)
  await buf.shutdown()
})

test('a truncated buffer file never stops the agent: it is moved aside and salvaged', async () => {
  const dir = tmp()
  const { buf } = newBuffer(dir)
  await buf.start()
  for (let i = 0; i < 50; i++) await buf.push(batch(String.fromCharCode(65 + (i % 26))))
  await buf.shutdown()
  const file = path.join(dir, 'data.mdb')
  fs.truncateSync(file, Math.floor(fs.statSync(file).size / 2))
  const main = new URL('../../../src/main.ts', import.meta.url).pathname
  const note = probeBuffer(dir, main)?.note ?? null
  if (note === null) {
    // LMDB could read what was left: the agent opens it normally and skips what is damaged.
    const again = newBuffer(dir)
    await again.buf.start()
    await again.buf.shutdown()
  } else {
    assert.match(note, /moved to .*\.damaged-\d+/)
    const aside = fs
      .readdirSync(path.dirname(dir))
      .filter(
        (d) =>
          d.startsWith(`${path.basename(dir)}.damaged-`) &&
          fs.existsSync(path.join(path.dirname(dir), d, 'data.mdb')),
      )
    assert.equal(aside.length, 1, 'the damaged buffer is kept, not wiped')
  }
  const check = spawnSync(process.execPath, [
    ...process.execArgv,
    main,
    'buffer',
    'verify',
    '--path',
    dir,
  ])
  assert.equal(check.status, 0, String(check.stderr))
})
