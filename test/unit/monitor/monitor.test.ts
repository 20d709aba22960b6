/** The monitor: figures sampled from the registry, the JSON route, the page, the terminal view. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { agentUrl } from '../../../src/monitor/cli.js'
import { renderSnapshot, sparkline } from '../../../src/monitor/render.js'
import type { Snapshot } from '../../../src/monitor/snapshot.js'
import { testApp } from '../../helpers/app.js'

test('samples turn counters into per-category rates and history', async () => {
  const { app, monitor } = testApp()
  await monitor.sample()
  await app.request('/v1/write/metric', { method: 'POST', body: 'a v=1i\nb v=2i\nc v=3i' })
  await app.request('/v1/write/logging', { method: 'POST', body: 'l message="x"' })
  await app.request('/v1/lasterror', {
    method: 'POST',
    body: '{"input":"redis","err_content":"timeout"}',
  })
  await new Promise((r) => setTimeout(r, 50))
  await monitor.sample()
  const res = await app.request('/v1/monitor')
  assert.equal(res.status, 200)
  const s = (await res.json()) as Snapshot
  assert.deepEqual(
    s.categories.map((c) => [c.category, c.in_total, c.out_total]),
    [
      ['logging', 2, 0],
      ['metric', 3, 0],
    ],
  )
  const metric = s.categories[1]
  assert.ok(metric.in_per_s > 0, JSON.stringify(metric))
  assert.equal(s.history.length, 1)
  assert.ok(Math.abs(s.history[0].in - (metric.in_per_s + s.categories[0].in_per_s)) < 1e-9)
  assert.deepEqual(
    s.errors.map((e) => [e.kind, e.source, e.message]),
    [['lasterror', 'redis', 'timeout']],
  )
  assert.equal(s.host, 'my-testing')
})

test('GET /monitor is a self-contained page polling /v1/monitor', async () => {
  const { app } = testApp()
  const res = await app.request('/monitor')
  assert.equal(res.status, 200)
  assert.match(res.headers.get('content-type') ?? '', /^text\/html/)
  const html = await res.text()
  assert.match(html, /fetch\('\/v1\/monitor'\)/)
  assert.match(html, /<polyline id="in"/)
  assert.doesNotMatch(html, /(src|href)="https?:/)
})

test('sparkline scales to the largest value', () => {
  assert.equal(sparkline([0, 1, 2, 4, 8]), '▁▁▂▄█')
  assert.equal(sparkline([0, 0]), '▁▁')
  assert.equal(sparkline([]), '')
  assert.equal(sparkline([1, 2, 3, 4], 2), '▆█')
})

test('the terminal view', () => {
  const s: Snapshot = {
    version: '1.2.3',
    host: 'web-1',
    uptime_s: 3725,
    at: Date.UTC(2026, 10, 23, 8, 30, 0),
    health: { status: 'degraded', reasons: ['upstream up1 failing for 75 s'] },
    categories: [
      {
        category: 'logging',
        in_per_s: 1234.56,
        out_per_s: 1200,
        in_total: 98765,
        out_total: 98000,
        buffered_points: 765,
        buffered_bytes: 3 * 1024 * 1024,
        oldest_age_s: 75,
      },
    ],
    upload: { failures: 2, retries: 5, dead_letters: 0, dropped_points: 0 },
    decode: { queue: 1, utilization: 0.375 },
    pipeline: [
      { category: 'logging', script: 'nginx', points: 98765, errors: 3, us_per_point: 17.25 },
    ],
    inputs: [
      { input: 'cpu', runs: 12, points: 12, errors: 0, ms_per_run: 1.25, last_run_s: 4 },
      { input: 'prom', runs: 3, points: 30000, errors: 1, ms_per_run: 84, last_run_s: -1 },
    ],
    errors: [
      { at: Date.UTC(2026, 10, 23, 8, 29, 58), kind: 'upload', source: 'up1', message: 'HTTP 503' },
    ],
    history: [1, 2, 4, 8].map((v, i) => ({ at: i, in: v, out: v / 2 })),
  }
  assert.equal(
    renderSnapshot(s),
    [
      'ferry 1.2.3 on web-1 · up 1h2m · 2026-11-23 08:30:00 UTC',
      'health: DEGRADED: upstream up1 failing for 75 s',
      '',
      'CATEGORY     IN/S    OUT/S      IN     OUT  BUFFERED   BYTES  OLDEST',
      'logging   1,234.6  1,200.0  98,765  98,000       765  3.0MiB   1m15s',
      '',
      'points/s in   ▁▂▄█',
      'points/s out  ▁▂▄█',
      '',
      'upload: 2 failed attempts, 5 retries, 0 dead letters, 0 dropped points',
      'decode: 1 queued, 37.5% busy',
      'pipeline:',
      '  logging/nginx  98,765 points  3 errors  17.3 µs/point',
      '',
      'INPUT  RUNS  POINTS  ERRORS  MS/RUN    LAST',
      'cpu      12      12       0     1.3  4s ago',
      'prom      3  30,000       1    84.0       -',
      'last errors:',
      '  08:29:58 upload up1: HTTP 503',
    ].join('\n'),
  )
})

test('the monitor finds the agent from [http_api] listen', () => {
  assert.equal(agentUrl('0.0.0.0:9529', false), 'http://127.0.0.1:9529')
  assert.equal(agentUrl('127.0.0.1:19529', true), 'https://127.0.0.1:19529')
  assert.equal(agentUrl('[::]:9529', false), 'http://[::1]:9529')
  assert.equal(agentUrl(':9529', false), 'http://127.0.0.1:9529')
})
