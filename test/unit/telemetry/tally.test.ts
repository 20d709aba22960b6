/**
 * Per-request counters counted as plain numbers (telemetry/tally.ts) read exactly as direct
 * increments would: same names, labels, values and order, before and after reads in between.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Counter, Registry } from 'prom-client'
import { Events } from '../../../src/telemetry/events.js'
import { createMetrics } from '../../../src/telemetry/metrics.js'
import { Tally } from '../../../src/telemetry/tally.js'
import { silentLogger } from '../../../src/telemetry/logger.js'

const lines = (text: string, name: string) =>
  text.split('\n').filter((l) => l.startsWith(`${name}{`))

test('the write events count requests and points as direct increments did', async () => {
  const metrics = createMetrics()
  const events = new Events(silentLogger(), metrics)
  const write = '/v1/write/:category'
  events.httpAnswered(write, 'POST', 200, 0.001)
  events.httpAnswered('/v1/ping', 'GET', 200, 0.001)
  events.writeAccepted({ category: 'metric', input: 'a', points: 100, warnings: {}, dry: false })
  const first = await metrics.registry.metrics()
  assert.deepEqual(lines(first, 'ferry_write_points_total'), [
    'ferry_write_points_total{category="metric"} 100',
  ])
  events.httpAnswered(write, 'POST', 200, 0.001)
  events.httpAnswered(write, 'POST', 400, 0.001)
  events.writeAccepted({ category: 'logging', input: 'a', points: 3, warnings: {}, dry: false })
  events.writeAccepted({ category: 'metric', input: 'a', points: 5, warnings: {}, dry: false })
  const text = await metrics.registry.metrics()
  assert.deepEqual(lines(text, 'ferry_http_requests_total'), [
    'ferry_http_requests_total{route="/v1/write/:category",method="POST",status="200"} 2',
    'ferry_http_requests_total{route="/v1/ping",method="GET",status="200"} 1',
    'ferry_http_requests_total{route="/v1/write/:category",method="POST",status="400"} 1',
  ])
  assert.deepEqual(lines(text, 'ferry_write_points_total'), [
    'ferry_write_points_total{category="metric"} 105',
    'ferry_write_points_total{category="logging"} 3',
  ])
  assert.deepEqual(
    (await metrics.pointsReceived.get()).values.map((v) => v.value),
    [105, 3],
  )
})

test('a tally read into a counter equals the same increments made directly', async () => {
  const registry = new Registry()
  const tally = new Tally<'k'>()
  const tallied = new Counter({
    name: 'tallied_total',
    help: 'h',
    labelNames: ['k'] as const,
    registers: [registry],
    collect() {
      tally.flushInto(this)
    },
  })
  const direct = new Counter({ name: 'direct_total', help: 'h', labelNames: ['k'] as const })
  const seq: [string, number][] = [
    ['b', 1],
    ['a', 2],
    ['b', 3],
    ['c', 0],
    ['a', 1],
  ]
  for (const [k, n] of seq) {
    tally.add(k, () => ({ k }), n)
    direct.inc({ k }, n)
    if (k === 'c') await tallied.get()
  }
  assert.deepEqual((await tallied.get()).values, (await direct.get()).values)
})
