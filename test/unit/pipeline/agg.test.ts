/**
 * agg_create/agg_metric: the documentation's examples (test/fixtures/pipeline-agg.json,
 * written by hand from the reference's function pages and its own test) run through a
 * decode worker's engine, their operations applied to the main thread's buckets, and the
 * metric points the buckets emit compared whole. The buckets' own rules: agg-buckets.test.ts.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, test } from 'node:test'
import { applyPipeline } from '../../../src/pipeline/apply.js'
import type { AggOp } from '../../../src/pipeline/agg/ops.js'
import type { PipelineEngine } from '../../../src/pipeline/engine.js'
import { Kind, type Point } from '../../../src/shared/point.js'
import { recordingBuckets, type Emitted } from '../../helpers/agg-buckets.js'
import { testEngine } from '../../helpers/pipeline.js'

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

const order = (l: Emitted[]) =>
  [...l].sort((a, b) => `${a.category}/${a.name}`.localeCompare(`${b.category}/${b.name}`))

for (const [n, c] of cases.entries()) {
  test(`agg: ${c.example}`, async () => {
    const [agg, rec] = recordingBuckets()
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
