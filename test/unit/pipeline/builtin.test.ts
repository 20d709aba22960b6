/**
 * Conformance: the reference's built-in logging scripts (its inputs' `PipelineConfig()`
 * scripts, copied by hand into test/fixtures/pipeline-builtin.json) over the sample logs of
 * their documentation give the documented fields. The nginx, apache, redis, mysql,
 * postgresql, elasticsearch, tomcat and kafka scripts are checked by cases.test.ts; iis and
 * tdengine, whose documentation shows no sample, are compiled only.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, test } from 'node:test'
import type { PipelineEngine } from '../../../src/pipeline/engine.js'
import { kv, runPpl, testEngine } from '../../helpers/pipeline.js'

interface Builtin {
  input: string
  script: string
  /** null: the documentation shows no sample, so the script is only compiled. */
  sample: string | null
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

for (const b of builtins.filter((x) => x.sample === null)) {
  test(`built-in ${b.input} script compiles`, () => {
    const src = { category: 'logging', name: b.input, lang: 'p' as const, source: b.script }
    assert.deepEqual(e.load({ ...src, file: `${b.input}.p` }), [])
  })
}

for (const b of builtins.filter((x) => x.sample !== null)) {
  for (const pointMode of [false, true]) {
    test(`built-in ${b.input} script on its documented sample (${pointMode ? 'point' : 'batch'} mode)`, () => {
      const r = runPpl(e, b.input, b.script, [b.sample!], { name: b.input, pointMode })
      assert.equal(r.stats.errors, 0, String(r.stats.firstError))
      const got = kv(r.points[0])
      for (const [k, v] of Object.entries(b.fields ?? {})) assert.deepEqual(got[k], v, k)
      for (const k of b.absent ?? []) assert.equal(k in got, false, `${k} absent`)
      if (b.time) assert.equal(String(r.points[0].time), b.time)
    })
  }
}
