/**
 * `ferry tap` against a real agent: it prints exactly the points written (after the pipeline,
 * with the global tags), in line protocol or JSON, and the route refuses anyone not on loopback.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { test } from 'node:test'
import { startAgent, type AgentProcess } from '../helpers/agent-process.js'
import { waitFor } from '../helpers/sink-server.js'

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname

/** Starts `ferry tap`, waits until the agent counts it attached; resolves with its output. */
async function tap(agent: AgentProcess, args: string[]): Promise<{ output: Promise<string> }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', MAIN, 'tap', '--url', agent.url, ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let out = ''
  let err = ''
  child.stdout.on('data', (d) => (out += d))
  child.stderr.on('data', (d) => (err += d))
  const done = new Promise<string>((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`tap exited ${code}: ${err}`)),
    ),
  )
  await waitFor(
    async () =>
      (await (await fetch(`${agent.url}/metrics`)).text()).includes('ferry_tap_clients 1'),
    20_000,
    'tap attached',
  )
  // Wrapped: an async function returning a promise would wait for it.
  return { output: done }
}

const write = async (agent: AgentProcess, category: string, body: string) => {
  const r = await fetch(`${agent.url}/v1/write/${category}`, { method: 'POST', body })
  assert.equal(r.status, 200, await r.text())
}

test('ferry tap prints exactly the points written', { timeout: 90_000 }, async () => {
  const agent = await startAgent({
    ENV_WORKSPACE_EMBEDDED: 'false',
    ENV_GLOBAL_HOST_TAGS: 'region=eu',
    ENV_HOSTNAME: 'tap-host',
    ENV_HTTP_PUBLIC_APIS: '/v1/tap',
  })
  try {
    const lp = await tap(agent, ['--category', 'metric', '--count', '3'])
    await write(agent, 'logging', 'log,app=a message="not a metric" 1700000000000000000')
    await write(
      agent,
      'metric',
      'cpu,cpu=cpu0 usage=1.5,n=2i 1700000000000000000\ncpu,cpu=cpu1 usage=3 1700000000000000001',
    )
    await write(agent, 'metric', 'mem used=7u 1700000000000000002')
    assert.equal(
      await lp.output,
      [
        `cpu,cpu=cpu0,host=tap-host,region=eu n=2i,usage=1.5 1700000000000000000`,
        `cpu,cpu=cpu1,host=tap-host,region=eu usage=3 1700000000000000001`,
        `mem,host=tap-host,region=eu used=7u 1700000000000000002`,
        '',
      ].join('\n'),
    )

    const json = await tap(agent, [
      '--format',
      'json',
      '--filter',
      'measurement=log,app!=b',
      '--count',
      '1',
    ])
    await write(agent, 'logging', 'log,app=b message="skipped" 1700000000000000003')
    await write(agent, 'logging', 'log,app=a message="shown" 1700000000000000004')
    const line = await json.output
    // The time is an exact integer in the text (beyond a double's precision).
    assert.match(line, /,"time":1700000000000000004\}\n$/)
    const { time: _time, ...rest } = JSON.parse(line)
    assert.deepEqual(rest, {
      category: 'logging',
      measurement: 'log',
      tags: { app: 'a', host: 'tap-host', region: 'eu' },
      fields: { message: 'shown', status: 'unknown' },
    })

    // Listed in public_apis or not, a forwarded (remote) caller is refused.
    const remote = await fetch(`${agent.url}/v1/tap`, {
      headers: { 'X-Forwarded-For': '203.0.113.9' },
    })
    assert.equal(remote.status, 403)
    const bad = await fetch(`${agent.url}/v1/tap?filter=nonsense`)
    assert.equal(bad.status, 400)
  } finally {
    await agent.stop()
  }
})
