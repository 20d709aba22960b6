/**
 * Every case of test/fixtures/pipeline-cases.json, three ways: the case's own Platypus
 * script in batch mode and in point mode, and (for the logs Ferry ships scripts for) the
 * shipped JavaScript script in conf.d/pipeline/logging/.
 *
 * Comparison rules, from the cases' notes: `status` is compared after the logging status
 * normalisation (the cases mix script output "OK"/"WARN" with stored values "ok"/"info");
 * times are compared as the JSON numbers the file holds. One deliberate difference: the redis
 * script casts `pid` to int, so Ferry stores 122 where the case (copied from the reference's
 * doc table) shows "122".
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, test } from 'node:test'
import type { PipelineEngine } from '../../../src/pipeline/engine.js'
import { normaliseStatus } from '../../../src/pipeline/lib/status.js'
import { sync } from '../../../src/pipeline/worker-host.js'
import { FIXTURES } from '../../helpers/app.js'
import { kv, runOn, testEngine } from '../../helpers/pipeline.js'

interface Case {
  id: string
  source_name?: string
  input?: string
  input_variants?: Record<string, string>
  script: string
  expect: { fields?: Record<string, unknown>; removed_fields?: string[]; time?: number }
}

const cases = JSON.parse(readFileSync(new URL('pipeline-cases.json', FIXTURES), 'utf8')) as Case[]
const OVERRIDES: Record<string, Record<string, unknown>> = { redis: { pid: 122 } }
const SHIPPED = new URL('../../../conf.d/pipeline', import.meta.url).pathname

let engine: PipelineEngine
before(async () => {
  engine = await testEngine()
  engine.load({
    category: 'logging',
    name: 'b',
    lang: 'p',
    source: 'add_key(b_p, true)',
    file: 'b.p',
  })
})
after(() => engine.dispose())

function check(c: Case, got: Record<string, unknown>, time: bigint, input: string): void {
  const want = { ...c.expect.fields, ...OVERRIDES[c.id] }
  for (const [k, v] of Object.entries(want)) {
    if (k === 'status')
      assert.equal(got.status, normaliseStatus(String(v)), `${c.id} ${input}: status`)
    else if (k === 'time' && !('time' in got)) assert.equal(Number(time), v, `${c.id}: point time`)
    else assert.deepEqual(got[k], v, `${c.id}: ${k}`)
  }
  if (!('status' in want)) assert.equal(got.status, 'info', `${c.id}: default status`)
  for (const k of c.expect.removed_fields ?? []) assert.ok(!(k in got), `${c.id}: ${k} removed`)
  if (c.expect.time !== undefined) assert.equal(Number(time), c.expect.time, `${c.id}: time`)
}

function inputsOf(c: Case): [string, string][] {
  if (!c.input_variants) return [['', c.input!]]
  return Object.entries(c.input_variants)
}

for (const pointMode of [false, true]) {
  test(`pipeline cases: Platypus scripts (${pointMode ? 'point' : 'batch'} mode)`, () => {
    for (const c of cases) {
      for (const [variant, input] of inputsOf(c)) {
        // The Tokyo variant passes the zone to default_time (see the case's script comment).
        let source = c.script
        if (variant.includes('Asia/Tokyo'))
          source = source.replace('default_time(time)', 'default_time(time, "Asia/Tokyo")')
        if (c.id === 'pl-debug-nginx-error') source += '\nuse("b.p")'
        assert.deepEqual(
          engine.load({ category: 'logging', name: c.id, lang: 'p', source, file: `${c.id}.p` }),
          [],
        )
        const r = runOn(engine, c.id, [input], { name: c.source_name ?? 'x', pointMode })
        assert.equal(r.stats.errors, 0, `${c.id}: ${r.stats.firstError}`)
        assert.equal(r.stats.batch, !pointMode, `${c.id}: mode`)
        check(c, kv(r.points[0]), r.points[0].time!, variant)
      }
    }
  })
}

test('pipeline cases: the shipped JavaScript scripts give the same fields', async () => {
  const shipped = await testEngine()
  const failed: string[] = []
  sync(shipped, SHIPPED, (file) => failed.push(file))
  assert.deepEqual(failed, [])
  let ran = 0
  for (const c of cases) {
    if (!c.source_name || !shipped.has('logging', c.source_name)) continue
    const r = runOn(shipped, c.source_name, [c.input!])
    assert.equal(r.stats.errors, 0, `${c.id}: ${r.stats.firstError}`)
    const want = { ...c.expect, fields: { ...c.expect.fields } }
    delete want.fields.b_p
    check({ ...c, expect: want }, kv(r.points[0]), r.points[0].time!, '')
    ran++
  }
  assert.equal(ran, 13)
  shipped.dispose()
})
