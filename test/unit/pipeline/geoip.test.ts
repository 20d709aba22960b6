/**
 * `geoip(ip)` in scripts: city, province, country and isp of a public address from the shipped
 * DB-IP version, `unknown` for private and malformed ones, nothing for a missing key; and in
 * decode workers, which never load the database themselves: the main thread's copy travels
 * with the tasks whose scripts call `geoip()`.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { DecodePool } from '../../../src/ingest/pool.js'
import { plainTask } from '../../../src/ingest/protocol.js'
import type { PipelineEngine } from '../../../src/pipeline/engine.js'
import { callsGeoip, type PipelineWatcher } from '../../../src/pipeline/watcher.js'
import { IpDb } from '../../../src/rum/geo/ipdb.js'
import { scriptGeo } from '../../../src/agent/rum.js'
import { kv, runOn, testEngine, workerPipeline } from '../../helpers/pipeline.js'
import { payloadShapes } from '../../helpers/points.js'

const SCRIPT = 'grok(_, "%{NOTSPACE:client}")\ngeoip(client)\n'
const GOOGLE = { city: 'Mountain View', province: 'California', country: 'US', isp: 'Google LLC' }
const UNKNOWN = { city: 'unknown', province: 'unknown', country: 'unknown', isp: 'unknown' }

let engine: PipelineEngine
before(async () => {
  await IpDb.instance().load()
  engine = await testEngine()
  const s = { category: 'logging', name: 'geo', lang: 'p' as const, source: SCRIPT, file: 'geo.p' }
  assert.deepEqual(engine.load(s), [])
})
after(() => engine.dispose())

const place = (p: Record<string, unknown>) => ({
  city: p.city,
  province: p.province,
  country: p.country,
  isp: p.isp,
})

test('geoip sets the four fields from the shipped database; unknown where it has nothing', () => {
  const { points } = runOn(engine, 'geo', ['8.8.8.8', '192.168.1.7', 'not-an-ip'])
  assert.deepEqual(
    points.map((p) => place(kv(p))),
    [GOOGLE, UNKNOWN, UNKNOWN],
  )
})

test('geoip of a missing key adds nothing', () => {
  const e = engine
  const source = 'geoip(nowhere)\n'
  assert.deepEqual(
    e.load({ category: 'logging', name: 'none', lang: 'p', source, file: 'n.p' }),
    [],
  )
  const { points } = runOn(e, 'none', ['8.8.8.8'])
  assert.deepEqual(Object.keys(kv(points[0])).sort(), ['message', 'status'])
})

test('scripts calling geoip are recognised by their source', () => {
  assert.equal(callsGeoip(SCRIPT), true)
  assert.equal(callsGeoip('geoip (ip)'), true)
  assert.equal(callsGeoip('add_key(mygeoip, 1)'), false)
})

test('decode workers read the main thread database, brought by the tasks that need it', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-geo-'))
  fs.mkdirSync(path.join(dir, 'logging'))
  fs.writeFileSync(path.join(dir, 'logging', 'geo.p'), SCRIPT)
  const watcher = { usesGeoip: () => true } as PipelineWatcher
  const pipeline = workerPipeline(dir)
  const run = async (geo: boolean) => {
    const pool = new DecodePool({
      workers: 2,
      maxQueue: 16,
      pipeline,
      geo: geo ? scriptGeo(() => watcher) : undefined,
    })
    await pool.start()
    try {
      const body = Buffer.from('geo message="8.8.8.8 - GET /" 1700000000000000000\n')
      const tasks = [1, 2, 3, 4].map(() =>
        pool.decode(
          plainTask(new Uint8Array(body), 'logging', { pipeline: { version: 1, source: 'geo' } }),
        ),
      )
      return (await Promise.all(tasks)).map((r) => payloadShapes(r.payload)[0].fields)
    } finally {
      await pool.shutdown()
    }
  }
  try {
    // Without the main thread's copy a worker has no database: it never loads its own.
    for (const f of await run(false)) assert.equal(f.city, undefined)
    for (const f of await run(true))
      assert.deepEqual(place(f), {
        city: { string: 'Mountain View' },
        province: { string: 'California' },
        country: { string: 'US' },
        isp: { string: 'Google LLC' },
      })
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
