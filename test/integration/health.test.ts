/**
 * Health: a real agent uploading to a test upstream turns `degraded` (on /v1/ping, /v1/monitor
 * and for `ferry health`, which then exits 1) once the upstream has failed for longer than
 * `upstream_failing_after`, and `ok` again once it accepts uploads. Also the operations gauges.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { test } from 'node:test'
import { startAgent } from '../helpers/agent-process.js'
import { SinkServer, waitFor } from '../helpers/sink-server.js'

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname

type Health = { status: string; reasons: string[] }

async function pingHealth(url: string): Promise<Health> {
  const body = (await (await fetch(`${url}/v1/ping`)).json()) as { content: { health: Health } }
  return body.content.health
}

function ferryHealth(url: string) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', MAIN, 'health', '--url', url], {
    encoding: 'utf8',
    timeout: 30_000,
  })
  return { status: r.status, stdout: r.stdout.trim(), stderr: r.stderr.trim() }
}

test('health turns degraded while the upstream fails, and ok when it returns', async () => {
  const sink = new SinkServer()
  const upstream = await sink.start()
  const label = new URL(upstream).host
  sink.mode = { kind: 'status', status: 503 }
  const agent = await startAgent({
    ENV_DATAWAY: upstream,
    ENV_DATAWAY_RETRY_INITIAL: '100ms',
    ENV_DATAWAY_RETRY_MAX: '300ms',
    ENV_HEALTH_UPSTREAM_FAILING_AFTER: '1s',
  })
  try {
    assert.deepEqual(await pingHealth(agent.url), { status: 'ok', reasons: [] })
    assert.deepEqual(ferryHealth(agent.url), {
      status: 0,
      stdout: `ok ${agent.url}/v1/ping`,
      stderr: '',
    })
    const w = await fetch(`${agent.url}/v1/write/metric`, { method: 'POST', body: 'm f=1i' })
    assert.equal(w.status, 200)

    let h: Health = { status: '', reasons: [] }
    await waitFor(async () => (h = await pingHealth(agent.url)).status === 'degraded', 15_000)
    assert.equal(h.reasons.length, 1)
    assert.match(h.reasons[0], new RegExp(`^upstream ${label} failing for \\d+ s$`))
    const monitor = (await (await fetch(`${agent.url}/v1/monitor`)).json()) as { health: Health }
    assert.equal(monitor.health.status, 'degraded')
    const cli = ferryHealth(agent.url)
    assert.equal(cli.status, 1)
    assert.match(
      cli.stderr,
      new RegExp(`^ferry: degraded: ${agent.url}/v1/ping: upstream ${label}`),
    )

    sink.mode = { kind: 'ok' }
    await waitFor(async () => (await pingHealth(agent.url)).status === 'ok', 15_000)
    assert.equal(sink.points().length, 1)
    assert.equal(ferryHealth(agent.url).status, 0)

    const metrics = await (await fetch(`${agent.url}/metrics`)).text()
    assert.match(
      metrics,
      /^ferry_build_info\{version="[^"]+",commit="[^"]+",node="v\d+[^"]*"\} 1$/m,
    )
    assert.match(metrics, /^ferry_buffer_capacity_bytes\{category="metric"\} 2147483648$/m)
    assert.match(metrics, /^ferry_buffer_total_capacity_bytes 4294967296$/m)
    const last = new RegExp(
      `^ferry_upload_last_success_timestamp_seconds\\{upstream="${label}"\\} (\\S+)$`,
      'm',
    )
    assert.ok(Math.abs(Number(last.exec(metrics)?.[1]) - Date.now() / 1000) < 30)
    assert.match(
      metrics,
      new RegExp(`^ferry_upload_failing_since_timestamp_seconds\\{upstream="${label}"\\} 0$`, 'm'),
    )
  } finally {
    await agent.stop()
    await sink.stop()
  }
})
