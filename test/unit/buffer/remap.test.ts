/**
 * The disk buffer's resident pages are bounded (remap.ts): records read back leave their pages
 * resident until the environment is reopened, which `maxResident` bytes of reads bring about,
 * between writes, without losing or reordering anything while writes and reads go on.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import type { Batch } from '../../../src/buffer/buffer.js'
import { DiskBuffer } from '../../../src/buffer/disk/disk-buffer.js'
import { quietBuffer } from '../../helpers/quiet-events.js'

const MiB = 2 ** 20

function batch(marker: number, size: number): Batch {
  const payload = Buffer.alloc(size, marker & 255)
  payload.writeUInt32BE(marker, 0)
  return { category: 'metric', payload, points: 1, input: 'test', receivedAt: 1_700_000_000_000 }
}

/** Resident bytes of this process's mapping of the buffer's data file. */
function residentOf(dir: string): number {
  const file = path.join(dir, 'data.mdb')
  let rss = 0
  let inFile = false
  for (const line of fs.readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) inFile = line.endsWith(file)
    else if (inFile && line.startsWith('Rss:')) rss += Number(line.split(/\s+/)[1]) * 1024
  }
  return rss
}

async function withBuffer(
  maxResident: number,
  fn: (b: DiskBuffer, dir: string) => Promise<void>,
  durability: 'sync' | 'async' = 'sync',
) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-remap-'))
  const remaps: number[] = []
  const events = { ...quietBuffer, remapped: (bytes: number) => void remaps.push(bytes) }
  const opts = { durability, maxBytesPerCategory: 1 << 30, minFreeDisk: 0 }
  const b = new DiskBuffer({ path: dir, whenFull: 'reject', maxResident, ...opts }, events)
  await b.start()
  try {
    await fn(b, dir)
  } finally {
    await b.shutdown()
    await b.shutdown()
    fs.rmSync(dir, { recursive: true, force: true })
  }
  return remaps
}

/** Pushes 64 MiB in 256 KiB records, then reads them all back in 4 MiB windows. */
async function fillAndRead(b: DiskBuffer): Promise<number> {
  for (let i = 0; i < 256; i++) await b.push(batch(i, 256 * 1024))
  let cursor = 0
  let read = 0
  for (;;) {
    const w = b.read('metric', cursor, 4 * MiB)
    if (!w.length) return read
    read += w.length
    cursor = w[w.length - 1].seq
    await b.setCursor('r', cursor)
  }
}

test('reads leave the whole file resident without a bound, and at most about the bound with one', async () => {
  let unbounded = 0
  const none = await withBuffer(0, async (b, dir) => {
    assert.equal(await fillAndRead(b), 256)
    unbounded = residentOf(dir)
  })
  assert.deepEqual(none, [])
  assert.ok(unbounded >= 60 * MiB, `resident ${unbounded / MiB} MiB`)
  let bounded = 0
  const remaps = await withBuffer(8 * MiB, async (b, dir) => {
    assert.equal(await fillAndRead(b), 256)
    await new Promise((r) => setTimeout(r, 50))
    bounded = residentOf(dir)
  })
  assert.ok(remaps.length >= 4, `${remaps.length} reopens`)
  assert.ok(remaps.every((bytes) => bytes >= 8 * MiB))
  assert.ok(bounded <= 16 * MiB, `resident ${bounded / MiB} MiB`)
})

/** Reads the buffer at every turn of the event loop until stopped; collects what failed. */
function poll(b: DiskBuffer): () => unknown[] {
  const failed: unknown[] = []
  let on = true
  const turn = () => {
    try {
      b.read('metric', 0, 1)
      b.getCursor('r')
      b.getPlan('r')
    } catch (e) {
      failed.push(e)
    }
    if (on) setImmediate(turn)
  }
  setImmediate(turn)
  return () => ((on = false), failed)
}

for (const durability of ['sync', 'async'] as const)
  test(`writes and reads going on through reopens lose and reorder nothing (${durability})`, async () => {
    const seen: number[] = []
    const remaps = await withBuffer(
      64 * 1024,
      async (b) => {
        const stop = poll(b)
        let cursor = 0
        let next = 0
        for (let round = 0; round < 40; round++) {
          // Pushes in flight while a read asks for a reopen, and the positions written after it.
          // Each push's continuation reads at once, as an uploader woken by it would.
          const pushes = Array.from({ length: 8 }, () =>
            b.push(batch(next++, 16 * 1024)).then(() => b.read('metric', cursor, 1)),
          )
          const w = b.read('metric', cursor, 48 * 1024)
          for (const r of w) seen.push(Buffer.from(r.payload).readUInt32BE(0))
          if (w.length) cursor = w[w.length - 1].seq
          await Promise.all([...pushes, b.setCursor('r', cursor), b.prune('metric', cursor)])
        }
        for (;;) {
          const w = b.read('metric', cursor, 1 << 30)
          if (!w.length) break
          for (const r of w) seen.push(Buffer.from(r.payload).readUInt32BE(0))
          cursor = w[w.length - 1].seq
        }
        assert.equal(b.getCursor('r') <= cursor, true)
        assert.deepEqual(stop(), [], 'reads at any other turn never met a closed environment')
      },
      durability,
    )
    assert.deepEqual(
      seen,
      Array.from({ length: 320 }, (_, i) => i),
    )
    assert.ok(remaps.length >= 10, `${remaps.length} reopens`)
  })
