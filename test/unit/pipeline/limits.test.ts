/** Per-run caps: create_point amplification and oversized output are refused and counted. */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { PipelineEngine } from '../../../src/pipeline/engine.js'
import { kv, runOn, TZ } from '../../helpers/pipeline.js'

let e: PipelineEngine
before(async () => {
  e = await PipelineEngine.create({
    memoryBytes: 32 << 20,
    stackBytes: 256 << 10,
    batchTimeoutMs: 1000,
    timezone: TZ,
    caps: { maxCreatedPoints: 5, maxOutputBytes: 64 * 1024 },
  })
})
after(() => e.dispose())

const js = (name: string, source: string) =>
  assert.deepEqual(
    e.load({ category: 'logging', name, lang: 'js', source, file: `${name}.js` }),
    [],
  )

test('caps: create_point past max_created_points fails the run; points go on unchanged', () => {
  js('amplify', "for (let i = 0; i < 1000000; i++) create_point('x', {}, { i })")
  const started = performance.now()
  const r = runOn(e, 'amplify', ['a', 'b'], { pointMode: true })
  assert.ok(performance.now() - started < 900, 'refused before the time limit')
  assert.equal(r.stats.errors, 2)
  assert.equal(r.stats.limited, 2)
  assert.equal(
    r.stats.firstError,
    'create_point: more than 5 points in one run ([pipeline] max_created_points)',
  )
  assert.deepEqual(r.points.map(kv), [{ message: 'a' }, { message: 'b' }])
  assert.equal(r.pls[0].created!.length, 5)
})

test('caps: output past max_output_bytes fails the run; within it, the script runs', () => {
  js('grow', "for (let i = 0; i < 100; i++) add_key('k' + i, 'x'.repeat(1000))")
  const r = runOn(e, 'grow', ['a'])
  assert.equal(r.stats.limited, 1)
  assert.equal(
    r.stats.firstError,
    'script output over 65536 bytes in one run ([pipeline] max_output_bytes)',
  )
  assert.deepEqual(r.points.map(kv), [{ message: 'a' }])
  js('fits', "for (let i = 0; i < 3; i++) create_point('x', { t: 'v' }, { i })")
  const ok = runOn(e, 'fits', ['b'])
  assert.equal(ok.stats.errors, 0)
  assert.equal(ok.stats.limited, 0)
  assert.deepEqual(
    ok.pls[0].created!.map((p) => [p.name, [...p.tags], [...p.fields]]),
    [
      ['x', [['t', 'v']], [['i', 0]]],
      ['x', [['t', 'v']], [['i', 1]]],
      ['x', [['t', 'v']], [['i', 2]]],
    ],
  )
})
