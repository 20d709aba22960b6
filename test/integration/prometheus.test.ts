/**
 * /metrics for real: the agent's scrape passes `promtool check metrics`, and a Prometheus
 * server scraping it sees `up == 1` and the write counters move.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { startAgent } from '../helpers/agent-process.js'
import { hasCommand } from '../helpers/commands.js'
import { promtoolCheck, startPrometheus } from '../helpers/prometheus.js'
import { waitFor } from '../helpers/sink-server.js'

async function write(url: string, lines: number): Promise<void> {
  const body = Array.from({ length: lines }, (_, i) => `cpu,core=c${i % 4} usage=${i}`).join('\n')
  const res = await fetch(`${url}/v1/write/metric`, { method: 'POST', body })
  assert.equal(res.status, 200)
}

test('the full agent scrape passes promtool check metrics', async (t) => {
  if (!hasCommand('promtool')) return t.skip('promtool not installed (Debian package prometheus)')
  const agent = await startAgent()
  try {
    await write(agent.url, 10)
    await fetch(`${agent.url}/v1/write/metric`, { method: 'POST', body: 'bad' })
    const text = await (await fetch(`${agent.url}/metrics`)).text()
    for (const name of [
      'ferry_http_requests_total',
      'ferry_http_request_duration_seconds',
      'ferry_http_request_body_size_bytes',
      'ferry_write_points_total',
      'ferry_write_rejected_requests_total',
      'ferry_buffer_points',
      'ferry_upload_requests_total',
      'ferry_decode_workers',
      'ferry_decode_utilization_ratio',
      'ferry_decode_task_duration_seconds',
      'ferry_process_cpu_seconds_total',
    ])
      assert.match(text, new RegExp(`^# TYPE ${name} `, 'm'), name)
    assert.deepEqual(promtoolCheck(text), { status: 0, output: '' })
  } finally {
    await agent.stop()
  }
})

test('a real Prometheus scrapes the agent: up == 1 and the write counters move', async (t) => {
  if (!hasCommand('prometheus')) return t.skip('prometheus not installed (Debian package)')
  const agent = await startAgent()
  const prom = await startPrometheus(agent.url.replace('http://', ''))
  const expect = (expr: string, value: number) =>
    waitFor(async () => (await prom.query(expr)) === value, 30_000, `${expr} == ${value}`)
  try {
    await write(agent.url, 5)
    await expect('up{job="ferry"}', 1)
    const points = 'sum(ferry_write_points_total{job="ferry",category="metric"})'
    await expect(points, 5)
    await write(agent.url, 7)
    await expect(points, 12)
  } finally {
    await prom.stop()
    await agent.stop()
  }
})
