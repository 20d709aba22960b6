/**
 * query_refer_table / mquery_refer_table over tables pulled from a local HTTP server in the
 * reference's JSON format (test/fixtures/refer-tables.json, written by hand after the
 * reference's documented example table): typed cells, the first matching row, refused
 * tables and pulls, and the copy a worker adopts from shared memory.
 */
import assert from 'node:assert/strict'
import fs, { readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import { DecodePool } from '../../../src/ingest/pool.js'
import { plainTask } from '../../../src/ingest/protocol.js'
import type { PipelineEngine } from '../../../src/pipeline/engine.js'
import { adoptRefer } from '../../../src/pipeline/lib/fn-refer.js'
import { ReferPuller } from '../../../src/pipeline/refer/puller.js'
import { kv, runPpl, testEngine, workerPipeline } from '../../helpers/pipeline.js'
import { payloadShapes } from '../../helpers/points.js'

const TABLES = readFileSync(new URL('../../fixtures/refer-tables.json', import.meta.url), 'utf8')

let body = TABLES
let server: Server
let url = ''
let engine: PipelineEngine
const seen: string[] = []
const events = {
  referLoaded: (t: number, r: number, refused: string[]) => seen.push(`ok ${t} ${r} ${refused}`),
  referFailed: (e: string) => seen.push(`failed ${e}`),
}
const puller = () =>
  new ReferPuller({ url, intervalMs: 60_000, maxBytes: 4096, timeoutMs: 10_000 }, events)

before(async () => {
  server = createServer((_req, res) => res.end(body))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tables`
  engine = await testEngine()
})
after(async () => {
  engine.dispose()
  await new Promise((r) => server.close(r))
})

const QUERY = 'json(_, table)\njson(_, key)\njson(_, value)\nquery_refer_table(table, key, value)'
const run = (script: string, input: object) =>
  kv(runPpl(engine, 'refer', script, [JSON.stringify(input)]).points[0]!)

test('a pull loads the good tables and refuses a damaged one, with its reason', async () => {
  seen.length = 0
  assert.equal(await puller().pull(), true)
  assert.deepEqual(seen, ['ok 1 3 broken: row 0: b is not int'])
})

test('query_refer_table: the first row matching adds every column, typed', () => {
  const got = run(QUERY, { table: 'table_abc', key: 'col2', value: 1234.0 })
  assert.deepEqual([got.col, got.col2, got.col3, got.col4], ['ab', 1234, 123, true])
  const a = run(QUERY, { table: 'table_abc', key: 'col', value: 'a' })
  assert.deepEqual([a.col, a.col2, a.col3, a.col4], ['a', 123, 123, false])
})

test('query_refer_table: no row, an unknown table or column, or another type change nothing', () => {
  for (const q of [
    { table: 'table_abc', key: 'col', value: 'zz' },
    { table: 'nope', key: 'col', value: 'a' },
    { table: 'table_abc', key: 'nope', value: 'a' },
    { table: 'table_abc', key: 'col3', value: '123' },
    { table: 'broken', key: 'a', value: 'x' },
  ])
    assert.equal(run(QUERY, q).col, undefined, JSON.stringify(q))
})

test('mquery_refer_table: every key column must match', () => {
  const script =
    'json(_, table)\nmquery_refer_table(table, keys=["col", "col3"], values=["ab", 1235])'
  const got = run(script, { table: 'table_abc' })
  assert.deepEqual([got.col, got.col3, got.col4], ['ab', 1235, false])
  const none = 'mquery_refer_table("table_abc", ["col", "col3"], ["a", 1235])'
  assert.equal(run(none, {}).col, undefined)
  const short = 'mquery_refer_table("table_abc", ["col", "col3"], ["ab"])'
  assert.equal(run(short, {}).col, undefined)
})

test('a pull over the size cap, not a list, or failing keeps the previous tables', async () => {
  seen.length = 0
  const p = puller()
  body = JSON.stringify([
    {
      table_name: 'big',
      column_name: ['a'],
      column_type: ['string'],
      row_data: [['x'.repeat(5000)]],
    },
  ])
  assert.equal(await p.pull(), false)
  body = '{"table_name": "x"}'
  assert.equal(await p.pull(), false)
  assert.equal(p.current(), null)
  assert.deepEqual(seen, [
    'failed the tables are larger than 4096 bytes',
    'failed refer tables: the document is not a JSON list',
  ])
  assert.equal(run(QUERY, { table: 'table_abc', key: 'col', value: 'a' }).col, 'a')
  body = TABLES
})

test('a worker adopts a shared copy once per version', () => {
  const bytes = (text: string) => {
    const b = Buffer.from(text)
    const shared = new SharedArrayBuffer(b.byteLength)
    new Uint8Array(shared).set(b)
    return shared
  }
  const t = [
    {
      table_name: 't',
      column_name: ['k', 'v'],
      column_type: ['string', 'int'],
      row_data: [['a', 1]],
    },
  ]
  adoptRefer({ version: 1000, bytes: bytes(JSON.stringify(t)) })
  assert.equal(run('query_refer_table("t", "k", "a")', {}).v, 1)
  // The same version is not parsed again: the old tables stay.
  adoptRefer({ version: 1000, bytes: bytes('[]') })
  assert.equal(run('query_refer_table("t", "k", "a")', {}).v, 1)
  adoptRefer({ version: 1001, bytes: bytes('[]') })
  assert.equal(run('query_refer_table("t", "k", "a")', {}).v, undefined)
})

test('decode workers query the tables that travel with their tasks', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-refer-'))
  fs.mkdirSync(path.join(dir, 'logging'))
  fs.writeFileSync(path.join(dir, 'logging', 'refer.p'), 'query_refer_table("table_abc", "col", _)')
  const p = puller()
  assert.equal(await p.pull(), true)
  const pool = new DecodePool({
    workers: 2,
    maxQueue: 16,
    pipeline: workerPipeline(dir, 5000),
    refer: () => p.current(),
  })
  await pool.start()
  try {
    const body = Buffer.from('refer message="ab" 1700000000000000000\n')
    const tasks = [1, 2, 3, 4].map(() =>
      pool.decode(
        plainTask(new Uint8Array(body), 'logging', { pipeline: { version: 1, source: 'refer' } }),
      ),
    )
    for (const r of await Promise.all(tasks)) {
      const f = payloadShapes(r.payload)[0]!.fields
      assert.deepEqual([f.col2, f.col3, f.col4], [{ float: 1234 }, { int: '123' }, { bool: true }])
    }
  } finally {
    await pool.shutdown()
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
