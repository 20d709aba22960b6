/**
 * Agent + test upstream over real sockets and a real disk buffer: delivery exactly once when
 * nothing fails, retries through 5xx and dropped connections, dead letters for 4xx, and
 * independent upstreams.
 */
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { startAgent, type AgentProcess } from '../helpers/agent-process.js'
import { SinkServer, waitFor } from '../helpers/sink-server.js'

const cleanup: (() => Promise<unknown>)[] = []
after(async () => {
  for (const c of cleanup.reverse()) await c()
})

async function setup(sinks: number, env: Record<string, string> = {}) {
  const servers = Array.from({ length: sinks }, () => new SinkServer())
  const urls = await Promise.all(servers.map((s) => s.start()))
  for (const s of servers) cleanup.push(() => s.stop())
  const agent = await startAgent({
    ENV_DATAWAY: urls.join(','),
    ENV_DATAWAY_RETRY_INITIAL: '50ms',
    ENV_DATAWAY_RETRY_MAX: '200ms',
    ...env,
  })
  cleanup.push(() => agent.stop())
  return { servers, agent }
}

async function write(
  agent: AgentProcess,
  from: number,
  count: number,
  category = 'metric',
): Promise<void> {
  const body = Array.from({ length: count }, (_, i) => `m,host=a n=${from + i}i`).join('\n')
  const res = await fetch(`${agent.url}/v1/write/${category}`, { method: 'POST', body })
  assert.equal(res.status, 200, await res.text())
}

const sorted = (v: unknown[]) => [...v].map(Number).sort((a, b) => a - b)
const range = (n: number) => Array.from({ length: n }, (_, i) => i)

test('every accepted point reaches every upstream exactly once', async () => {
  const { servers, agent } = await setup(2)
  for (let i = 0; i < 20; i++) await write(agent, i * 50, 50)
  for (const s of servers) {
    await waitFor(() => s.points().length >= 1000, 15_000, 'delivery')
    assert.deepEqual(sorted(s.values('n')), range(1000))
    const r = s.received[0]
    assert.equal(r.headers['content-type'], 'application/protobuf; proto=com.guance.Point')
    assert.equal(r.headers['content-encoding'], 'gzip')
    assert.match(String(r.headers['user-agent']), /^ferry-linux-\w+\/[\d.]+\/.+$/)
    assert.match(r.pkgId, /^fy1_[0-9a-f]{24}_\d+_\d+(_\d+-\d+)?$/)
    assert.equal(Number(r.headers['x-points']), r.points.length)
    assert.equal(r.points[0].tags.find((t) => t.key === 'host')?.value, 'a')
  }
})

test('5xx, 429 and dropped connections are retried until delivered; a dead upstream holds back no other', async () => {
  const { servers, agent } = await setup(2)
  const [flaky, healthy] = servers
  flaky.mode = { kind: 'status', status: 503 }
  await write(agent, 0, 100)
  await waitFor(() => healthy.points().length === 100, 15_000, 'healthy upstream')
  await waitFor(() => flaky.requests >= 2, 15_000, 'retries')
  flaky.mode = { kind: 'status', status: 429, retryAfter: '0' }
  await waitFor(() => flaky.requests >= 4, 15_000, 'retries after 429')
  flaky.mode = { kind: 'close' }
  await waitFor(() => flaky.requests >= 6, 15_000, 'retries after connection drops')
  flaky.mode = { kind: 'ok' }
  await waitFor(() => flaky.points().length >= 100, 15_000, 'recovery')
  assert.deepEqual(sorted(flaky.values('n')), range(100))
  const metrics = await (await fetch(`${agent.url}/metrics`)).text()
  assert.match(metrics, /ferry_upload_retries_total\{upstream="127\.0\.0\.1:\d+"\} [1-9]/)
  assert.match(
    metrics,
    /ferry_upload_requests_total\{upstream="127\.0\.0\.1:\d+",outcome="503"\} [1-9]/,
  )
})

test('4xx goes to dead letters and is counted; later data still flows', async () => {
  const { servers, agent } = await setup(1)
  const [sink] = servers
  sink.mode = { kind: 'status', status: 400 }
  await write(agent, 0, 10, 'logging')
  await waitFor(() => sink.requests >= 1, 15_000, 'the refused upload')
  const metrics = async () => (await fetch(`${agent.url}/metrics`)).text()
  let m = ''
  for (
    let i = 0;
    i < 100 && !/ferry_dead_letters_total\{[^}]*category="logging"\} 1/.test(m);
    i++
  ) {
    m = await metrics()
    await new Promise((r) => setTimeout(r, 50))
  }
  assert.match(m, /ferry_dead_letters_total\{upstream="127\.0\.0\.1:\d+",category="logging"\} 1/)
  assert.match(m, /ferry_dropped_points_total\{category="logging",reason="dead_letter"\} 10/)
  sink.mode = { kind: 'ok' }
  await write(agent, 100, 5, 'logging')
  await waitFor(() => sink.points().length === 5, 15_000, 'later data')
  assert.ok(
    agent.logs.some((l) => l.includes('"event":"dead_letter"') && l.includes('told to answer 400')),
  )
})
