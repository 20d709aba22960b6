/**
 * /metrics for real: the agent's scrape passes `promtool check metrics`, and a Prometheus
 * server scraping it sees `up == 1` and the write counters move.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { startAgent } from '../helpers/agent-process.js'
import { hasCommand } from '../helpers/commands.js'
import { promtoolCheck, startPrometheus, until } from '../helpers/prometheus.js'

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
  try {
    await write(agent.url, 5)
    const up = await until(
      () => prom.query('up{job="ferry"}'),
      (v) => v === 1,
    )
    assert.equal(up, 1)
    const points = 'sum(ferry_write_points_total{job="ferry",category="metric"})'
    const first = await until(
      () => prom.query(points),
      (v) => v === 5,
    )
    assert.equal(first, 5)
    await write(agent.url, 7)
    const second = await until(
      () => prom.query(points),
      (v) => v === 12,
    )
    assert.equal(second, 12)
  } finally {
    await prom.stop()
    await agent.stop()
  }
})
