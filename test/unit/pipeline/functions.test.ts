/**
 * Golden tests: each library function's documented examples (the reference's function pages,
 * written into test/fixtures/pipeline-functions.json by hand: input, script, the fields the
 * page shows). A number written `"123n"` is an exact 64-bit integer field.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, test } from 'node:test'
import type { PipelineEngine } from '../../../src/pipeline/engine.js'
import { setCacheLimit } from '../../../src/pipeline/lib/fn-cache.js'
import { nearHour } from '../../../src/pipeline/lib/fn-dates.js'
import { runPpl, testEngine } from '../../helpers/pipeline.js'

interface Case {
  fn: string
  example: string
  input: string
  script: string
  fields: Record<string, unknown>
  absent?: string[]
  tags?: string[]
  time?: string
}

const FIXTURE = new URL('../../fixtures/pipeline-functions.json', import.meta.url)
const cases = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Case[]

let e: PipelineEngine
before(async () => {
  e = await testEngine()
})
after(() => e.dispose())

const exact = (v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)

for (const [n, c] of cases.entries()) {
  test(`${c.fn}: ${c.example}`, () => {
    const r = runPpl(e, `f${n}`, c.script, [c.input])
    assert.equal(r.stats.errors, 0, String(r.stats.firstError))
    const p = r.points[0]
    const got = new Map<string, unknown>(p.tags.map((t) => [t.key, t.value]))
    for (const f of p.fields) got.set(f.key, exact(f.value))
    for (const [k, v] of Object.entries(c.fields)) assert.deepEqual(got.get(k), v, k)
    for (const k of c.absent ?? []) assert.equal(got.has(k), false, `${k} absent`)
    for (const k of c.tags ?? [])
      assert.ok(
        p.tags.some((t) => t.key === k),
        `${k} is a tag`,
      )
    if (c.time) assert.equal(exact(p.time), c.time)
  })
}

test('adjust_timezone: the page worked examples (minute = 2)', () => {
  const at = (h: number, m: number, s: number, ms = 0) =>
    BigInt(Date.UTC(2022, 6, 11, h, m, s, ms)) * 1_000_000n
  assert.equal(nearHour(at(3, 12, 0, 1), at(11, 10, 0), 2), at(10, 12, 0, 1))
  assert.equal(nearHour(at(3, 1, 1), at(11, 59, 1), 2), at(12, 1, 1))
  assert.equal(nearHour(at(12, 49, 20, 937), at(20, 55, 10, 521), 2), at(20, 49, 20, 937))
})

test('cache: entries past cache_max_entries push the oldest out; expired entries are gone', async () => {
  setCacheLimit(2)
  const src = `cache_set("k1", "1")\ncache_set("k2", "2")\ncache_set("k3", "3")
cache_set("short", "s", 0.001)
add_key(k1, cache_get("k1"))\nadd_key(k3, cache_get("k3"))`
  const r = runPpl(e, 'c', src, ['x'])
  assert.equal(r.stats.errors, 0)
  const f = new Map(r.points[0].fields.map((x) => [x.key, x.value]))
  assert.equal(f.has('k1'), false)
  assert.equal(f.get('k3'), '3')
  setCacheLimit(10_000)
})
