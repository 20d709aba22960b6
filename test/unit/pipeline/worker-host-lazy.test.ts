/**
 * The decode worker's pipeline host builds its engine only for a category with a script file:
 * writes of other categories get the engine's answer (no script applies) without one.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { PipelineHost } from '../../../src/pipeline/worker-host.js'
import { Kind, type Point } from '../../../src/shared/point.js'
import { workerPipeline } from '../../helpers/pipeline.js'

function folder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-host-lazy-'))
  fs.mkdirSync(path.join(dir, 'logging'))
  fs.writeFileSync(path.join(dir, 'logging', 'nginx.p'), 'add_key(seen, "yes")\n')
  return dir
}

function point(name: string): Point {
  return {
    name,
    tags: [],
    fields: [{ key: 'message', value: 'GET /', kind: Kind.STRING }],
    time: 1_700_000_000_000_000_000n,
    warns: null,
  }
}

test('a category without a script file: no script applies, and no engine is built', async () => {
  const dir = folder()
  const host = new PipelineHost(workerPipeline(dir))
  const info = { version: 1, source: null }
  assert.equal(await host.mayApply('metric', info), false)
  const points = [point('cpu')]
  const out = await host.apply('metric', points, info)
  assert.deepEqual(out, { points, stats: [] })
  assert.equal(out.points, points)
  assert.equal(host.built, false)
  fs.rmSync(dir, { recursive: true })
})

test('a category with a script file builds the engine and runs its script', async () => {
  const dir = folder()
  const host = new PipelineHost(workerPipeline(dir))
  const info = { version: 1, source: null }
  assert.equal(await host.mayApply('logging', info), true)
  assert.equal(host.built, true)
  const out = await host.apply('logging', [point('nginx')], info)
  assert.deepEqual(
    out.points[0].fields.map((f) => [f.key, f.value]),
    [
      ['message', 'GET /'],
      ['seen', 'yes'],
      ['status', 'info'],
    ],
  )
  assert.deepEqual(
    out.stats.map((s) => [s.script, s.points, s.errors]),
    [['nginx', 1, 0]],
  )
  fs.rmSync(dir, { recursive: true })
})

test('a script file that appears at a later version is seen at that version', async () => {
  const dir = folder()
  const host = new PipelineHost(workerPipeline(dir))
  assert.equal(await host.mayApply('metric', { version: 1, source: null }), false)
  fs.mkdirSync(path.join(dir, 'metric'))
  fs.writeFileSync(path.join(dir, 'metric', 'cpu.p'), 'add_key(seen, "yes")\n')
  assert.equal(await host.mayApply('metric', { version: 1, source: null }), false)
  assert.equal(await host.mayApply('metric', { version: 2, source: null }), true)
  fs.rmSync(dir, { recursive: true })
})
