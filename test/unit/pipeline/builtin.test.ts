/**
 * Conformance: the reference's built-in logging scripts (its inputs' `PipelineConfig()`
 * scripts, copied by hand into test/fixtures/pipeline-builtin.json) over the sample logs of
 * their documentation give the documented fields. The nginx, apache, redis, mysql,
 * postgresql, elasticsearch, tomcat and kafka scripts are checked by cases.test.ts. tdengine's
 * samples are its input's `LogExamples()`; iis has none anywhere, so its lines are written by
 * hand in IIS's default W3C field order, the order its script reads.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, test } from 'node:test'
import type { PipelineEngine } from '../../../src/pipeline/engine.js'
import { kv, runPpl, testEngine } from '../../helpers/pipeline.js'

interface Builtin {
  input: string
  script: string
  sample: string
  fields?: Record<string, unknown>
  absent?: string[]
  time?: string
}

const FIXTURE = new URL('../../fixtures/pipeline-builtin.json', import.meta.url)
const builtins = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Builtin[]

let e: PipelineEngine
before(async () => {
  e = await testEngine()
})
after(() => e.dispose())

for (const [n, b] of builtins.entries()) {
  for (const pointMode of [false, true]) {
    test(`built-in ${b.input} script on sample ${n} (${pointMode ? 'point' : 'batch'} mode)`, () => {
      const r = runPpl(e, b.input, b.script, [b.sample], { name: b.input, pointMode })
      assert.equal(r.stats.errors, 0, String(r.stats.firstError))
      const got = kv(r.points[0])
      for (const [k, v] of Object.entries(b.fields ?? {})) assert.deepEqual(got[k], v, k)
      for (const k of b.absent ?? []) assert.equal(k in got, false, `${k} absent`)
      if (b.time) assert.equal(String(r.points[0].time), b.time)
    })
  }
}
