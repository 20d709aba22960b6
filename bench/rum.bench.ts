/**
 * `npm run bench:rum`: the RUM stages of a write, on the calling thread.
 *
 * 1. Source maps: 200 RUM `error` points a body, each with a 20-frame minified stack of
 *    preact.min.js (a test fixture), through the decode task with the resolver, against the
 *    same body without it: points/s, and the time resolution adds per error point with the
 *    zip cached (target < 50 µs) and cold (a fresh resolver: zip read, map parsed).
 * 2. GeoIP: the tagging cost per point (target < 2 µs): the per-request lookup (cached by
 *    address, and uncached) and adding the six tags to a point.
 * 3. GeoIP memory: process RSS with two worker threads reading the main thread's shared
 *    database, against two threads loading their own copy.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import { zipSync } from 'fflate'
import { processTask } from '../src/ingest/process.js'
import { plainTask } from '../src/ingest/protocol.js'
import { addGeoTags } from '../src/ingest/rum.js'
import { IpDb } from '../src/rum/geo/ipdb.js'
import { GeoTagger } from '../src/rum/geo/tags.js'
import { createRumStage, type RumStage } from '../src/rum/stage.js'
import { Kind, newPoint } from '../src/shared/point.js'

const here = (p: string) => new URL(p, import.meta.url).pathname
const POINTS = 200
const FRAMES = 20
const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d })
const rssMb = () => process.memoryUsage().rss / 2 ** 20

function errorBody(): Buffer {
  const points = Array.from({ length: POINTS }, (_, i) => {
    const frames = Array.from({ length: FRAMES }, (_, f) => {
      const col = 1000 + ((i * 37 + f * 331) % 9000)
      return `  at fn${f} @ http://127.0.0.1/dist/preact.min.js:1:${col}`
    })
    return {
      measurement: 'error',
      tags: { app_id: 'bench', env: 'prod', version: '1', sdk_name: 'df_web_rum_sdk' },
      fields: { error_stack: `Error: boom ${i}\n${frames.join('\n')}`, error_message: 'boom' },
      time: 1_700_000_000_000_000_000 + i,
    }
  })
  return Buffer.from(JSON.stringify(points))
}

function stage(root: string): RumStage {
  const resolver = {
    root,
    maxZips: 4,
    maxBytes: 64 << 20,
    recheckMs: 60_000,
    ...{ maxEntries: 100_000, zipBytes: 64 << 20, zipEntries: 10_000, waitMs: 10_000 },
  }
  return createRumStage({ resolver, cdn: null, symbols: null })
}

/** Seconds a task takes, best of `rounds` runs of `reps`. */
async function timed(body: Buffer, rum: () => RumStage | null, reps: number, rounds = 5) {
  let best = Infinity
  for (let r = 0; r < rounds; r++) {
    const started = performance.now()
    for (let i = 0; i < reps; i++) {
      const task = plainTask(new Uint8Array(body), 'rum', {
        contentType: 'application/json',
        rum: { geoTags: [], appIds: [], measurements: [] },
      })
      const stage = rum()
      const out = await processTask(task, null, stage)
      if (!out.ok) throw new Error(out.error.message)
      if (stage && out.sourcemaps?.some((m) => m.status !== 'success'))
        throw new Error(`unresolved: ${out.sourcemaps.find((m) => m.status !== 'success')?.status}`)
    }
    best = Math.min(best, (performance.now() - started) / 1000 / reps)
  }
  return best
}

async function sourceMaps(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-rum-'))
  fs.mkdirSync(path.join(root, 'web'))
  const map = fs.readFileSync(here('../../test/fixtures/sourcemap/preact.min.js.map'))
  fs.writeFileSync(
    path.join(root, 'web', 'bench-prod-1.zip'),
    zipSync({ 'dist/preact.min.js.map': new Uint8Array(map) }),
  )
  const body = errorBody()
  const warm = stage(root)
  await timed(body, () => warm, 3, 1) // warm-up: loads and parses the map
  const off = await timed(body, () => null, 20)
  const hit = await timed(body, () => warm, 20)
  const cold = await timed(body, () => stage(root), 1, 8)
  console.log(`source maps: ${POINTS} error points a body, ${FRAMES} frames each`)
  console.log(`  resolver off:   ${fmt(POINTS / off)} points/s`)
  console.log(
    `  cache hit:      ${fmt(POINTS / hit)} points/s; adds ${fmt(((hit - off) / POINTS) * 1e6, 1)} µs per error point (target < 50)`,
  )
  console.log(
    `  cold (new zip): ${fmt(POINTS / cold)} points/s; the body's first resolution costs ${fmt((cold - hit) * 1000, 1)} ms more (zip read, map parsed)`,
  )
  warm.resolver.close()
  fs.rmSync(root, { recursive: true, force: true })
}

function perOp(n: number, f: (i: number) => void): number {
  const started = performance.now()
  for (let i = 0; i < n; i++) f(i)
  return ((performance.now() - started) * 1000) / n
}

async function geo(): Promise<void> {
  const before = rssMb()
  const started = performance.now()
  const db = IpDb.instance()
  await db.load()
  console.log(
    `geoip: database loaded in ${fmt(performance.now() - started)} ms, RSS +${fmt(rssMb() - before)} MB`,
  )
  const tagger = new GeoTagger(db)
  const ips = Array.from(
    { length: 50_000 },
    (_, i) => `${(i % 220) + 1}.${(i >> 8) & 255}.${i & 255}.${(i * 7) & 255}`,
  )
  const uncached = perOp(ips.length, (i) => db.lookup(ips[i]))
  tagger.tags('8.8.8.8')
  const cached = perOp(1_000_000, () => tagger.tags('8.8.8.8'))
  const tags = tagger.tags('8.8.8.8')
  // A browser SDK view point: about 20 tags and 15 fields; bodies carry tens of points.
  const points = Array.from({ length: 100_000 }, (_, n) => {
    const p = newPoint('view')
    for (let i = 0; i < 20; i++) p.tags.push({ key: `tag_${i}`, value: `v${n}` })
    for (let i = 0; i < 15; i++) p.fields.push({ key: `field_${i}`, kind: Kind.INT, value: i })
    return p
  })
  const BODY = 50
  const add =
    perOp(points.length / BODY, (i) => addGeoTags(points.slice(i * BODY, (i + 1) * BODY), tags)) /
    BODY
  console.log(`  lookup, new address (database): ${fmt(uncached, 2)} µs`)
  console.log(`  lookup, address seen before:    ${fmt(cached, 3)} µs (once per request)`)
  console.log(`  six tags added to a point:      ${fmt(add, 3)} µs per point (target < 2)`)
}

async function threads(shared: boolean): Promise<number> {
  const data = { shared: shared ? IpDb.instance().shared() : null }
  const workers = [0, 1].map(() => new Worker(here('./lib/geo-worker.js'), { workerData: data }))
  await Promise.all(workers.map((w) => new Promise((r) => w.once('message', r))))
  const rss = rssMb()
  await Promise.all(workers.map((w) => w.terminate()))
  return rss
}

async function memory(): Promise<void> {
  const base = rssMb()
  const sharedRss = await threads(true)
  global.gc?.()
  const ownRss = await threads(false)
  console.log(`geoip memory, main thread's copy loaded (RSS ${fmt(base)} MB), two worker threads:`)
  console.log(
    `  reading the shared copy:   RSS ${fmt(sharedRss)} MB (+${fmt(sharedRss - base)} MB)`,
  )
  console.log(`  each loading its own copy: RSS ${fmt(ownRss)} MB (+${fmt(ownRss - base)} MB)`)
}

async function main(): Promise<void> {
  console.log(`figures on a shared ${os.availableParallelism()}-core machine: expect noise`)
  await sourceMaps()
  await geo()
  await memory()
  console.log(`peak RSS ${fmt(process.resourceUsage().maxRSS / 1024)} MB`)
}

await main()
