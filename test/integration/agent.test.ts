/**
 * The agent as users run it: a child process, a real port, decode workers, signals.
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import zlib from 'node:zlib'
import { startAgent, type AgentProcess } from '../helpers/agent-process.js'

let agent: AgentProcess

before(async () => {
  agent = await startAgent({ ENV_GLOBAL_HOST_TAGS: 'team=core' })
})
after(async () => {
  await agent?.stop()
})

test('writes through the worker pool over a real socket', async () => {
  const lines = Array.from(
    { length: 500 },
    (_, i) => `cpu,host=h${i % 3} usage=${i}.5,n=${i}i ${1700000000 + i}`,
  ).join('\n')
  const res = await fetch(`${agent.url}/v1/write/metric?echo=lp`, { method: 'POST', body: lines })
  assert.equal(res.status, 200)
  const echoed = (await res.text()).split('\n')
  assert.equal(echoed.length, 500)
  assert.equal(echoed[7], 'cpu,host=h1 n=7i,usage=7.5 1700000007000000000')
})

test('concurrent writes, compressed and not, all answered correctly', async () => {
  const body = 'mem,host=a free=1i'
  const gz = zlib.gzipSync(body)
  const results = await Promise.all(
    Array.from({ length: 60 }, (_, i) =>
      i % 3 === 0
        ? fetch(`${agent.url}/v1/write/metric`, {
            method: 'POST',
            body: 'broken line',
            headers: {},
          })
        : fetch(`${agent.url}/v1/write/metric`, {
            method: 'POST',
            body: i % 3 === 1 ? body : gz,
            headers: i % 3 === 1 ? {} : { 'Content-Encoding': 'gzip' },
          }),
    ),
  )
  for (const [i, r] of results.entries()) assert.equal(r.status, i % 3 === 0 ? 400 : 200)
  const metrics = await (await fetch(`${agent.url}/metrics`)).text()
  assert.match(
    metrics,
    /^ferry_write_rejected_requests_total\{category="metric",code="invalidLinePoint"\} 20$/m,
  )
  assert.match(metrics, /^ferry_decode_queue_tasks \d+$/m)
})

test('bad input never takes the process down', async () => {
  const bodies = [
    Buffer.from([0, 1, 2, 255, 254]),
    Buffer.from('{"a":'),
    zlib.gzipSync('x').subarray(0, 5),
  ]
  for (const b of bodies) {
    for (const ct of ['', 'application/json', 'application/protobuf; proto=com.guance.Point']) {
      const r = await fetch(`${agent.url}/v1/write/logging?encoding=gzip`, {
        method: 'POST',
        body: b,
        headers: ct ? { 'Content-Type': ct } : {},
      })
      assert.equal(r.status, 400)
    }
  }
  assert.equal((await fetch(`${agent.url}/v1/ping`)).status, 200)
})

test('SIGTERM shuts down cleanly', async () => {
  const code = await agent.stop('SIGTERM')
  assert.equal(code, 0)
  assert.ok(agent.logs.some((l) => l.includes('"event":"agent_stopped"')))
})
