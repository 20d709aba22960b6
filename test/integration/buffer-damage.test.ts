/**
 * Buffer damage met at start is never fatal and never silent: a real agent fills its buffer
 * while its upstream refuses, stops, and its `data.mdb` is damaged the way a bad disk does it
 * (bits flipped here and there; the last 8 pages overwritten with garbage). Started again, the
 * agent must serve, log `buffer_damaged` with counts, count the damaged records in
 * `ferry_buffer_damaged_records_total`, accept new writes, and deliver every intact batch.
 *
 * The oracle is independent of the agent: a batch is intact when its record's exact bytes, read
 * through LMDB before the damage, are still somewhere in the damaged file.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { open } from 'lmdb'
import { startAgent } from '../helpers/agent-process.js'
import { SinkServer, waitFor } from '../helpers/sink-server.js'

const BATCHES = 240
const PAGE = 16384

const env = (url: string) => ({
  ENV_DATAWAY: url,
  ENV_DATAWAY_RETRY_INITIAL: '20ms',
  ENV_DATAWAY_RETRY_MAX: '100ms',
})

/** Every stored record's bytes, with the batch number its points carry. */
function records(dir: string): { n: number; bytes: Buffer }[] {
  const envDb = open({ path: dir, maxDbs: 16, readOnly: true, noSubdir: false })
  try {
    const db = envDb.openDB<Buffer, number[]>({ name: 'cat:metric', encoding: 'binary' })
    return [...db.getRange()].map(({ value }) => {
      // The tag `b` carries the batch number as text.
      const m = /b(\d+)x/.exec(Buffer.from(value).toString('latin1'))
      return { n: Number(m?.[1]), bytes: Buffer.from(value) }
    })
  } finally {
    envDb.close()
  }
}

/** One batch per write: a line whose tag names the batch, some larger than a page. */
function body(n: number): string {
  const pad = 'p'.repeat(n % 7 === 0 ? 20_000 : 200 + (n % 50))
  return `dmg,b=b${n}x,pad=${pad} v=${n}i`
}

async function filledBuffer(sink: SinkServer, url: string): Promise<string> {
  sink.mode = { kind: 'status', status: 503 }
  const agent = await startAgent(env(url))
  for (let n = 0; n < BATCHES; n++) {
    const res = await fetch(`${agent.url}/v1/write/metric`, { method: 'POST', body: body(n) })
    assert.equal(res.status, 200)
  }
  assert.equal(await agent.stop(), 0)
  return agent.dataDir
}

/** A small deterministic generator, so a failure can be replayed. */
function prng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

function flipBits(file: string): void {
  const bytes = fs.readFileSync(file)
  const rnd = prng(26)
  // Past the two meta pages: a flip there only makes LMDB choose the other one.
  for (let i = 0; i < 60; i++) {
    const at = 2 * PAGE + Math.floor(rnd() * (bytes.length - 2 * PAGE))
    bytes[at] ^= 1 << Math.floor(rnd() * 8)
  }
  fs.writeFileSync(file, bytes)
}

function garbageAtEnd(file: string): void {
  const size = fs.statSync(file).size
  const fd = fs.openSync(file, 'r+')
  const rnd = prng(8)
  const junk = Buffer.from(Array.from({ length: 8 * PAGE }, () => Math.floor(rnd() * 256)))
  fs.writeSync(fd, junk, 0, junk.length, size - junk.length)
  fs.closeSync(fd)
}

function metric(text: string, name: string): number {
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`))
    .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0)
}

async function damagedStart(damage: (file: string) => void): Promise<void> {
  const sink = new SinkServer()
  const url = await sink.start()
  try {
    const dir = await filledBuffer(sink, url)
    const bufferDir = path.join(dir, 'buffer')
    const before = records(bufferDir)
    assert.equal(new Set(before.map((r) => r.n)).size, BATCHES)
    const file = path.join(bufferDir, 'data.mdb')
    damage(file)
    const raw = fs.readFileSync(file)
    const intact = new Set(before.filter((r) => raw.includes(r.bytes)).map((r) => r.n))
    assert.ok(intact.size < BATCHES, 'the damage hit at least one record')
    sink.mode = { kind: 'ok' }
    const agent = await startAgent(env(url), undefined, dir)
    try {
      const line = agent.logs.find((l) => l.includes('"event":"buffer_damaged"'))
      assert.ok(line, 'buffer_damaged is logged')
      const logged = JSON.parse(line.slice(line.indexOf('{')))
      const metrics = await (await fetch(`${agent.url}/metrics`)).text()
      const counted = metric(metrics, 'ferry_buffer_damaged_records_total')
      assert.ok(
        counted >= BATCHES - intact.size,
        `counted ${counted}, lost ${BATCHES - intact.size}`,
      )
      assert.ok(logged.damaged?.metric >= BATCHES - intact.size, line)
      const res = await fetch(`${agent.url}/v1/write/metric`, {
        method: 'POST',
        body: 'dmg,b=after v=1i',
      })
      assert.equal(res.status, 200)
      const seen = () => new Set(sink.points().map((p) => p.tags.find((t) => t.key === 'b')?.value))
      await waitFor(
        () => [...intact].every((n) => seen().has(`b${n}x`)) && seen().has('after'),
        60_000,
        'every intact batch and the new write delivered',
      )
      assert.equal(await agent.stop(), 0)
    } finally {
      await agent.stop()
    }
  } finally {
    await sink.stop()
  }
}

test(
  'random bit flips in data.mdb: the agent starts, counts, accepts writes, delivers every intact batch',
  { timeout: 120_000 },
  () => damagedStart(flipBits),
)

test(
  'the last 8 pages of data.mdb overwritten: the agent starts, counts, accepts writes, delivers every intact batch',
  { timeout: 120_000 },
  () => damagedStart(garbageAtEnd),
)
