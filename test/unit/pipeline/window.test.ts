/** point_window / window_hit: the reference's context window around a hit, per stream. */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { PipelineEngine } from '../../../src/pipeline/engine.js'
import { fromPl, toPl } from '../../../src/pipeline/lib/pl-point.js'
import { setWindowStreamLimit } from '../../../src/pipeline/lib/window.js'
import { Kind } from '../../../src/shared/point.js'
import { testEngine } from '../../helpers/pipeline.js'

// The example of point_window.en.md, with the page's placeholder panic line.
const SCRIPT = `point_window(8, 8)
if grok(_, "abc.go:25 panic: xxxxxx") {
    window_hit()
}
if service == "test_app" {
    drop()
}`

let e: PipelineEngine
before(async () => {
  e = await testEngine()
  const src = { category: 'logging', name: 'w', lang: 'p' as const, source: SCRIPT, file: 'w.p' }
  assert.deepEqual(e.load(src), [])
})
after(() => e.dispose())

function line(n: number, file: string, panic = false) {
  return toPl({
    name: 'w',
    tags: [
      { key: 'service', value: 'test_app' },
      { key: 'filepath', value: file },
    ],
    fields: [
      { key: 'message', kind: Kind.STRING, value: panic ? 'abc.go:25 panic: xxxxxx' : `line ${n}` },
    ],
    time: BigInt(n),
    warns: null,
  })
}

/** Runs lines 0..count-1 of a file in batches of `batch`; returns the kept lines' numbers. */
function run(file: string, count: number, panicAt: number[], batch: number): number[] {
  const kept: number[] = []
  for (let at = 0; at < count; at += batch) {
    const pls = []
    for (let n = at; n < Math.min(count, at + batch); n++)
      pls.push(line(n, file, panicAt.includes(n)))
    const r = e.run('logging', 'w', pls)
    assert.equal(r.errors, 0, String(r.firstError))
    for (const p of pls) {
      if (!p.dropped) kept.push(Number(p.time))
      for (const c of p.created ?? []) kept.push(Number(fromPl(c).time))
    }
  }
  return kept.sort((a, b) => a - b)
}

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i)

test('window: 8 before, the hit, 7 after come back; the rest stays dropped', () => {
  assert.deepEqual(run('a.log', 30, [12], 100), range(4, 19))
})

test('window: the same across batches, and streams are apart', () => {
  assert.deepEqual(run('b.log', 30, [12], 5), range(4, 19))
  assert.deepEqual(run('c.log', 10, [], 5), [])
})

test('window: a forgotten stream keeps nothing to recover', () => {
  run('d.log', 8, [], 8)
  setWindowStreamLimit(0)
  setWindowStreamLimit(1000)
  assert.deepEqual(run('d.log', 1, [0], 1), [0])
})
