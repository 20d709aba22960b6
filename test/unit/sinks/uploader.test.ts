/**
 * The uploader over a real disk buffer and a fake far side: a window cut off mid-delivery (a
 * crash) is delivered again after a restart under the same package ids, even though more
 * records arrived meanwhile, so a deduplicating upstream stores every point exactly once.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { DiskBuffer } from '../../../src/buffer/disk/disk-buffer.js'
import type { UploadBody } from '../../../src/sinks/dataway/bodies.js'
import type { Send } from '../../../src/sinks/dataway/send.js'
import { Uploader } from '../../../src/sinks/dataway/uploader.js'
import { parseUpstream } from '../../../src/sinks/dataway/upstream.js'
import { quietBuffer, quietUpload } from '../../helpers/quiet-events.js'

function buffer(dir: string): DiskBuffer {
  return new DiskBuffer(
    {
      path: dir,
      durability: 'sync',
      maxBytesPerCategory: 1 << 30,
      whenFull: 'reject',
      minFreeDisk: 0,
    },
    quietBuffer,
  )
}

function uploader(
  buf: DiskBuffer,
  send: Send,
  up = parseUpstream('http://up:1?token=t'),
): Uploader {
  const opts = {
    compression: 'none' as const,
    gzipLevel: 1,
    userAgent: 'test',
    maxRawBodySize: 100,
    timeoutMs: 5_000,
    retryInitialMs: 1,
    retryMaxMs: 5,
    maxAgeMs: 3_600_000,
    concurrency: 2,
    shutdownTimeoutMs: 50,
    maxDeadLetters: 10,
  }
  return new Uploader(buf, [up], opts, quietUpload, () => send)
}

/** One PBPoints entry of 42 bytes: two fit in a body of 100 bytes. */
const entry = (n: number) => Buffer.concat([Buffer.from([0x0a, 40]), Buffer.alloc(40, n)])

async function push(buf: DiskBuffer, from: number, count: number): Promise<void> {
  for (let n = from; n < from + count; n++)
    await buf.push({
      category: 'metric',
      payload: entry(n),
      points: 1,
      input: 'test',
      receivedAt: Date.now(),
    })
}

test('a window cut off by a crash is resent under the same ids', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-up-'))
  const stored = new Map<string, Buffer>() // a deduplicating upstream
  const first: string[] = []
  let buf = buffer(dir)
  await buf.start()
  await push(buf, 0, 3) // one window, two bodies: [0,1] [2]
  let hang: (() => void) | null = null
  const crashing: Send = async (body, signal) => {
    first.push(body.pkgId)
    if (first.length === 1) return void stored.set(body.pkgId, Buffer.from(body.payload))
    await new Promise<void>((resolve) => {
      hang = resolve
      signal.addEventListener('abort', () => resolve())
    })
    throw Object.assign(new Error('cut off'), { retryable: true })
  }
  let up = uploader(buf, crashing)
  await up.start()
  while (first.length < 2) await new Promise((r) => setTimeout(r, 5))
  // The uploader's shutdown deadline does not hold the process open (the agent's server does).
  const alive = setInterval(() => undefined, 1000)
  await up.shutdown() // the second body never finished: the window stays open
  clearInterval(alive)
  assert.ok(hang)
  await buf.shutdown()

  buf = buffer(dir)
  await buf.start()
  await push(buf, 3, 1) // arrived after the crash: with no plan it would join [2]
  const second: UploadBody[] = []
  up = uploader(buf, async (body) => {
    second.push(body)
    if (!stored.has(body.pkgId)) stored.set(body.pkgId, Buffer.from(body.payload))
  })
  await up.start()
  while (second.reduce((n, b) => n + b.points, 0) < 4) await new Promise((r) => setTimeout(r, 5))
  await up.shutdown()
  await buf.shutdown()

  const id = (first: number, last: number) => `fy1_${buf.id}_${first}_${last}`
  assert.deepEqual(first, [id(1, 2), id(3, 3)])
  assert.deepEqual(
    second.map((b) => b.pkgId),
    [id(1, 2), id(3, 3), id(4, 4)],
    'the planned window is cut as before the crash',
  )
  const entries = Buffer.concat([...stored.values()]).toString('hex')
  assert.equal(entries, Buffer.concat([0, 1, 2, 3].map(entry)).toString('hex'), 'each once')
})

test('a buffer made again gets a new identity; a reopened one keeps it', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-id-'))
  let buf = buffer(dir)
  await buf.start()
  const id = buf.id
  assert.match(id, /^[0-9a-f]{24}$/)
  await buf.shutdown()
  buf = buffer(dir)
  await buf.start()
  assert.equal(buf.id, id)
  await buf.shutdown()
  fs.rmSync(dir, { recursive: true })
  buf = buffer(dir)
  await buf.start()
  assert.notEqual(buf.id, id)
  await buf.shutdown()
})

test('one buffer commit per window: cursor, pruning and the next plan together, the plan first', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-up-'))
  // Writes issued in one synchronous run share one turn, which lmdb commits as one transaction.
  const turns: string[][] = []
  let open = false
  const mark = (op: string) => {
    if (!open) {
      open = true
      turns.push([])
      queueMicrotask(() => (open = false))
    }
    turns[turns.length - 1].push(op)
  }
  const buf = buffer(dir)
  const orig = { cursor: buf.setCursor, prune: buf.prune, plan: buf.setPlan }
  buf.setCursor = (n, seq) => (mark(`cursor ${seq}`), orig.cursor.call(buf, n, seq))
  buf.prune = (c, upTo) => (mark(`prune ${upTo}`), orig.prune.call(buf, c, upTo))
  buf.setPlan = (n, p) => (mark(`plan ${p.end}`), orig.plan.call(buf, n, p))
  await buf.start()
  await push(buf, 0, 6) // records of 83 bytes: windows of at most 400 bytes, [1-4] and [5-6]
  const reader = `${parseUpstream('http://up:1?token=t').id}:metric`
  const sent: string[] = []
  const up = uploader(buf, async (body) => {
    // The body's window is planned on disk before it is sent.
    assert.ok(buf.getPlan(reader)!.end >= body.lastSeq)
    sent.push(body.pkgId)
  })
  await up.start()
  while (buf.getCursor(reader) < 6) await new Promise((r) => setTimeout(r, 5))
  await up.shutdown()
  await buf.shutdown()
  assert.equal(sent.length, 3)
  assert.deepEqual(turns, [['plan 4'], ['cursor 4', 'prune 4', 'plan 6'], ['cursor 6', 'prune 6']])
})

test("an upstream's own body size cuts its bodies (the embedded workspace's larger ones)", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-up-'))
  const buf = buffer(dir)
  await buf.start()
  await push(buf, 0, 6)
  const sizes: number[] = []
  let sent: () => void = () => undefined
  const all = new Promise<void>((resolve) => (sent = resolve))
  const send: Send = async (body) => {
    sizes.push(body.points)
    if (sizes.reduce((a, b) => a + b, 0) === 6) sent()
  }
  // 100 bytes a body for the others (two entries); 130 for this one (three).
  const up = uploader(buf, send, { ...parseUpstream('http://up:1?token=t'), maxRawBodySize: 130 })
  await up.start()
  await all
  assert.deepEqual(sizes, [3, 3])
  await up.shutdown()
  await buf.shutdown()
  fs.rmSync(dir, { recursive: true, force: true })
})
