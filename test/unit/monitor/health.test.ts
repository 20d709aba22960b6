import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Totals } from '../../../src/monitor/figures.js'
import { HealthJudge } from '../../../src/monitor/health.js'

const CONFIG = {
  upstream_failing_after: 60_000,
  buffer_usage_percent: 80,
  pipeline_errors: 10,
  pipeline_error_window: 60_000,
}

function totals(o: Partial<Totals> = {}): Totals {
  return {
    in: new Map(),
    out: new Map(),
    bufferedPoints: new Map(),
    bufferedBytes: new Map(),
    oldestAge: new Map(),
    uploadFailures: 0,
    retries: 0,
    deadLetters: 0,
    dropped: 0,
    pipeline: new Map(),
    decodeQueue: 0,
    decodeUtilization: 0,
    inputs: new Map(),
    failingSince: new Map(),
    capacity: new Map([
      ['metric', 1000],
      ['logging', 1000],
    ]),
    totalCapacity: 1500,
    workspaceDamaged: 0,
    ...o,
  }
}

test('an upstream failing longer than allowed degrades; shorter does not', () => {
  const judge = new HealthJudge(CONFIG)
  const now = 1_000_000_000
  const t = totals({
    failingSince: new Map([
      ['a:1', (now - 59_000) / 1000],
      ['b:2', 0],
    ]),
  })
  assert.deepEqual(judge.judge(t, now), { status: 'ok', reasons: [] })
  assert.deepEqual(judge.judge(t, now + 2000), {
    status: 'degraded',
    reasons: ['upstream a:1 failing for 61 s'],
  })
})

test('a category above its share, and the whole buffer above its share', () => {
  const judge = new HealthJudge(CONFIG)
  const t = totals({
    bufferedBytes: new Map([
      ['metric', 801],
      ['logging', 500],
    ]),
  })
  assert.deepEqual(judge.judge(t, 0).reasons, [
    'buffer metric at 80.1% of its capacity',
    'buffer at 86.7% of its total capacity',
  ])
})

test('pipeline errors count within the window only', () => {
  const judge = new HealthJudge(CONFIG)
  const errors = (n: number) => totals({ pipeline: new Map([['logging/nginx', [100, n, 0.1]]]) })
  assert.equal(judge.judge(errors(100), 0).status, 'ok') // errors from before the first sample
  assert.equal(judge.judge(errors(109), 30_000).status, 'ok')
  assert.deepEqual(judge.judge(errors(110), 59_000).reasons, [
    '10 pipeline errors in the last 60 s',
  ])
  // Past the window the old errors no longer count.
  assert.equal(judge.judge(errors(110), 120_000).status, 'ok')
})

test('a damaged embedded workspace database degrades, with one reason', () => {
  const judge = new HealthJudge(CONFIG)
  assert.deepEqual(judge.judge(totals({ workspaceDamaged: 1 }), 1000), {
    status: 'degraded',
    reasons: ['embedded workspace database damaged'],
  })
  assert.deepEqual(judge.judge(totals(), 2000), { status: 'ok', reasons: [] })
})
