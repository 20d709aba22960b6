/**
 * agg_create/agg_metric: the documentation's examples (test/fixtures/pipeline-agg.json,
 * written by hand from the reference's function pages and its own test) run through a
 * decode worker's engine, their operations applied to the main thread's buckets, and the
 * metric points the buckets emit compared whole. Then the limits: buckets, series, on_count.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, test } from 'node:test'
import { applyPipeline } from '../../../src/pipeline/apply.js'
import { AggBuckets, type AggRefusal } from '../../../src/pipeline/agg/buckets.js'
import type { AggOp } from '../../../src/pipeline/agg/ops.js'
import type { PipelineEngine } from '../../../src/pipeline/engine.js'
import type { Category } from '../../../src/shared/category.js'
import { Kind, type Point } from '../../../src/shared/point.js'
import { kv, testEngine } from '../../helpers/pipeline.js'

interface Emitted {
  category: string
  name: string
  tags: Record<string, string>
  fields: Record<string, unknown>
}

interface Case {
  example: string
  inputs: string[]
  tags: Record<string, string>
  script: string
  points: Emitted[]
}

const FIXTURE = new URL('../../fixtures/pipeline-agg.json', import.meta.url)
const cases = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Case[]

let e: PipelineEngine
before(async () => {
  e = await testEngine()
})
after(() => e.dispose())

function logs(inputs: string[], tags: Record<string, string>): Point[] {
  return inputs.map((m) => ({
    name: 'app',
    tags: Object.entries(tags).map(([key, value]) => ({ key, value })),
    fields: [{ key: 'message', kind: Kind.STRING, value: m }],
    time: 1_000_000_000n,
    warns: null,
  }))
}

/** Runs the script on each input as its own write (a task each); returns every task's ops. */
function opsOf(name: string, c: Case): AggOp[][] {
  const errors = e.load({ category: 'logging', name, lang: 'p', source: c.script, file: 'a.p' })
  assert.deepEqual(errors, [])
  const sel = { source: name, fallback: null, has: () => true }
  return c.inputs.map((m) => {
    const out = applyPipeline(e, 'logging', logs([m], c.tags), sel, 1000)
    assert.equal(out.stats[0].errors, 0, String(out.stats[0].firstError))
    return out.agg ?? []
  })
}

interface Recorder {
  emitted: Emitted[]
  refused: [AggRefusal, number][]
}

function buckets(maxBuckets = 100, maxSeries = 1000): [AggBuckets, Recorder] {
  const rec: Recorder = { emitted: [], refused: [] }
  const sink = async (category: Category, points: Point[]) => {
    for (const p of points) {
      const all = kv(p)
      const tags = Object.fromEntries(p.tags.map((t) => [t.key, t.value]))
      const fields = Object.fromEntries(p.fields.map((f) => [f.key, all[f.key]]))
      assert.ok(p.fields.every((f) => f.kind === Kind.FLOAT))
      rec.emitted.push({ category, name: p.name, tags, fields })
    }
  }
  const report = {
    refused: (r: AggRefusal, _c: Category, _b: string, n: number) => rec.refused.push([r, n]),
    flushed: () => {},
    flushFailed: () => {},
  }
  return [new AggBuckets({ maxBuckets, maxSeries, minIntervalMs: 1000 }, sink, report), rec]
}

const order = (l: Emitted[]) =>
  [...l].sort((a, b) => `${a.category}/${a.name}`.localeCompare(`${b.category}/${b.name}`))

for (const [n, c] of cases.entries()) {
  test(`agg: ${c.example}`, async () => {
    const [agg, rec] = buckets()
    for (const ops of opsOf(`agg${n}`, c)) agg.apply(ops)
    await agg.shutdown()
    assert.deepEqual(order(rec.emitted), order(c.points))
    assert.deepEqual(rec.refused, [])
  })
}

test('agg: a task reports each bucket once however many points call agg_create', () => {
  const c = { ...cases[0], inputs: ['{"a": 1}', '{"a": 2}', '{"a": 3}'] }
  e.load({ category: 'logging', name: 'once', lang: 'p', source: c.script, file: 'a.p' })
  const sel = { source: 'once', fallback: null, has: () => true }
  const out = applyPipeline(e, 'logging', logs(c.inputs, { host: 'h' }), sel, 1000)
  assert.deepEqual(
    out.agg?.map((op) => op.op),
    ['create', 'add', 'add', 'add'],
  )
})

test('agg: a failed run hands back no operation (a failed script changes nothing)', () => {
  const src =
    'agg_create("b", on_count=1)\nagg_metric("b", "f", "sum", ["host"], "message")\nx = "a" in 2'
  e.load({ category: 'logging', name: 'bad', lang: 'p', source: src, file: 'a.p' })
  const sel = { source: 'bad', fallback: null, has: () => true }
  const out = applyPipeline(e, 'logging', logs(['1'], { host: 'h' }), sel, 1000)
  assert.equal(out.stats[0].errors, 1)
  assert.equal(out.agg, undefined)
})

test('agg: agg_max_buckets and agg_max_series refuse and count, existing series still add', async () => {
  const [agg, rec] = buckets(1, 2)
  const create = (bucket: string): AggOp => ({
    op: 'create',
    category: 'metric',
    bucket,
    intervalMs: 60_000,
    count: 0,
    keep: false,
    tags: {},
  })
  const add = (bucket: string, host: string, value: number): AggOp => ({
    op: 'add',
    category: 'metric',
    bucket,
    field: 'f',
    fn: 'sum',
    by: ['host'],
    values: [host],
    value,
  })
  agg.apply([create('a'), create('b'), add('b', 'x', 1), add('nobody', 'x', 1)])
  agg.apply([add('a', 'h1', 1), add('a', 'h2', 2), add('a', 'h3', 3), add('a', 'h1', 10)])
  assert.deepEqual(agg.stats(), { buckets: 1, series: 2 })
  await agg.shutdown()
  assert.deepEqual(rec.refused, [
    ['buckets', 0],
    ['buckets', 1],
    ['series', 1],
  ])
  assert.deepEqual(
    rec.emitted.map((p) => [p.tags.host, p.fields.f]),
    [
      ['h1', 11],
      ['h2', 2],
    ],
  )
})

test('agg: on_count flushes, keep_value keeps the values growing across flushes', async () => {
  const [agg, rec] = buckets()
  const base = { op: 'add', category: 'metric', field: 'f', fn: 'sum', by: ['t'], values: ['v'] }
  const mk = (bucket: string, value: number) => ({ ...base, bucket, value }) as AggOp
  agg.apply([
    {
      op: 'create',
      category: 'metric',
      bucket: 'k',
      intervalMs: 0,
      count: 2,
      keep: true,
      tags: {},
    },
    {
      op: 'create',
      category: 'metric',
      bucket: 'r',
      intervalMs: 0,
      count: 2,
      keep: false,
      tags: {},
    },
  ])
  for (const v of [1, 2, 3, 4]) agg.apply([mk('k', v), mk('r', v)])
  const by = (name: string) => rec.emitted.filter((p) => p.name === name).map((p) => p.fields.f)
  assert.deepEqual(by('k'), [3, 10])
  assert.deepEqual(by('r'), [3, 7])
  await agg.shutdown()
  assert.deepEqual(by('k'), [3, 10, 10])
  assert.deepEqual(by('r'), [3, 7])
  agg.apply([mk('r', 1)])
  await agg.shutdown()
})

test('agg: a bucket flushes on its interval', async () => {
  const [agg, rec] = buckets()
  const fast = new AggBuckets(
    { maxBuckets: 10, maxSeries: 10, minIntervalMs: 20 },
    async (c, pts) => {
      for (const p of pts) rec.emitted.push({ category: c, name: p.name, tags: {}, fields: kv(p) })
    },
    { refused: () => {}, flushed: () => {}, flushFailed: () => {} },
  )
  fast.apply([
    {
      op: 'create',
      category: 'metric',
      bucket: 'i',
      intervalMs: 1,
      count: 0,
      keep: false,
      tags: {},
    },
    {
      op: 'add',
      category: 'metric',
      bucket: 'i',
      field: 'f',
      fn: 'max',
      by: ['t'],
      values: ['v'],
      value: -5,
    },
  ])
  const until = Date.now() + 30_000
  while (rec.emitted.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20))
  assert.deepEqual(rec.emitted, [
    { category: 'metric', name: 'i', tags: {}, fields: { t: 'v', f: -5 } },
  ])
  await fast.shutdown()
  await agg.shutdown()
  assert.equal(rec.emitted.length, 1)
})
