/**
 * The embedded workspace (`ferry run`: agent and workspace in one process) on a ClickHouse that
 * stops answering (SIGSTOP): the agent still answers its clients 200 and keeps their points in
 * its buffer, its uploads fail as retryable (503 with Retry-After) at a paced rate, not in a
 * loop, nothing is dropped or dead-lettered, and once ClickHouse answers again (SIGCONT) every
 * buffered point is stored. Frozen already when the agent starts, the workspace fails its start
 * and is tried again in the background while the agent buffers; it starts once ClickHouse
 * answers, and the buffered points are stored.
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { startAgent, type AgentProcess } from '../helpers/agent-process.js'
import { clickhouseMissing, startClickHouse, type ClickHouseServer } from '../helpers/clickhouse.js'
import { fastFailingClickHouse } from '../helpers/clickhouse-env.js'
import { poll } from '../helpers/workspace.js'

const missing = clickhouseMissing()
const skip = missing ?? false
let server: ClickHouseServer
let agent: AgentProcess

before(async () => {
  if (missing) return
  server = await startClickHouse()
  agent = await startAgent(fastFailingClickHouse(server.url))
})
after(async () => {
  if (server?.proc.exitCode === null) server.proc.kill('SIGCONT')
  await agent?.stop()
  await server?.stop()
})

/** The sum of a metric's samples whose labels match `labels` (all of them when ''). */
async function metric(name: string, labels = '', a = agent): Promise<number> {
  const text = await (await fetch(`${a.url}/metrics`)).text()
  let sum = 0
  for (const line of text.split('\n'))
    if (line.startsWith(name) && line.includes(labels) && /^[a-z_]+(\{|\s)/.test(line))
      sum += Number(line.slice(line.lastIndexOf(' ') + 1))
  return sum
}

async function stored(a = agent, measurement = 'down'): Promise<number> {
  const res = await fetch(`${a.url}/v1/query/raw`, {
    method: 'POST',
    body: JSON.stringify({ queries: [{ query: `M::${measurement}:(count(v))` }] }),
  })
  if (res.status !== 200) return -1
  const body = (await res.json()) as { content: { series: { values: unknown[][] }[] }[] }
  return Number(body.content[0]?.series[0]?.values[0]?.[1] ?? 0)
}

const write = async (from: number, n: number, a = agent, measurement = 'down') => {
  const now = Date.now() * 1e6
  const lines = Array.from({ length: n }, (_, i) => `${measurement} v=${from + i} ${now + i}`)
  return fetch(`${a.url}/v1/write/metric`, { method: 'POST', body: lines.join('\n') })
}

test(
  'ClickHouse down: the agent buffers, retries paced, drops nothing, then stores all',
  { skip, timeout: 240_000 },
  async () => {
    assert.equal((await write(0, 1)).status, 200)
    await poll(async () => ((await stored()) === 1 ? true : null), 60_000)

    server.proc.kill('SIGSTOP')
    for (let i = 0; i < 5; i++) assert.equal((await write(10 + i * 10, 10)).status, 200)
    // Uploads to the frozen workspace come back 503 (retryable).
    await poll(
      async () =>
        (await metric('ferry_upload_requests_total', 'outcome="503"')) > 0 ? true : null,
      60_000,
    )
    const attempts0 = await metric('ferry_upload_requests_total')
    const t0 = Date.now()
    await new Promise((r) => setTimeout(r, 10_000))
    const attempts = (await metric('ferry_upload_requests_total')) - attempts0
    const seconds = (Date.now() - t0) / 1000
    // Paced by Retry-After and backoff: a loop would make hundreds of attempts in 10 s.
    assert.ok(attempts <= seconds * 3, `${attempts} attempts in ${seconds} s`)
    assert.ok((await metric('ferry_buffer_points', 'category="metric"')) >= 50)
    assert.equal(await metric('ferry_dead_letters_total'), 0)
    assert.equal(await metric('ferry_dropped_points_total'), 0)

    server.proc.kill('SIGCONT')
    await poll(async () => ((await stored()) === 51 ? true : null), 120_000)
    assert.equal(await metric('ferry_dead_letters_total'), 0)
  },
)

test(
  'ClickHouse frozen when the agent starts: it buffers; the workspace starts once ClickHouse answers',
  { skip, timeout: 240_000 },
  async () => {
    server.proc.kill('SIGSTOP')
    const late = await startAgent({
      ...fastFailingClickHouse(server.url),
      ENV_WORKSPACE_EMBEDDED_RETRY_INITIAL: '1s',
      ENV_WORKSPACE_EMBEDDED_RETRY_MAX: '3s',
    })
    try {
      assert.equal((await write(0, 10, late, 'late')).status, 200)
      assert.equal(await metric('ferry_embedded_workspace_up', '', late), 0)
      assert.ok((await metric('ferry_buffer_points', 'category="metric"', late)) >= 10)
      server.proc.kill('SIGCONT')
      await poll(async () => ((await stored(late, 'late')) === 10 ? true : null), 120_000)
      assert.equal(await metric('ferry_embedded_workspace_up', '', late), 1)
      assert.equal(await metric('ferry_dead_letters_total', '', late), 0)
    } finally {
      if (server.proc.exitCode === null) server.proc.kill('SIGCONT')
      await late.stop()
    }
  },
)
