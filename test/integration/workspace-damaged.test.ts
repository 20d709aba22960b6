/**
 * A damaged workspace database fails the embedded workspace alone: the agent starts, logs the
 * failure, accepts writes into its disk buffer and reports the failure in `/v1/ping` and
 * `/metrics`; it tries the workspace again with backoff, and once the database is repaired the
 * workspace comes back without a restart and receives what was buffered.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { startAgent } from '../helpers/agent-process.js'
import { firstValues } from '../helpers/agent-query.js'
import { until } from '../helpers/until.js'
import { workspaceCli } from '../helpers/workspace-cli.js'

test('an agent whose workspace database is garbage runs on and buffers', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-damaged-'))
  fs.mkdirSync(path.join(dataDir, 'workspace'), { recursive: true })
  fs.writeFileSync(path.join(dataDir, 'workspace', 'ferry.duckdb'), Buffer.alloc(64 * 1024, 0x5a))
  const agent = await startAgent({}, undefined, dataDir)
  try {
    const res = await fetch(`${agent.url}/v1/write/metric`, {
      method: 'POST',
      body: 'cpu,host=a usage=1\ncpu,host=b usage=2',
    })
    assert.equal(res.status, 200)
    const ping = (await (await fetch(`${agent.url}/v1/ping`)).json()) as {
      content: { workspace: string }
    }
    assert.match(ping.content.workspace, /^failed: cannot open .*ferry\.duckdb: /)
    const metrics = await (await fetch(`${agent.url}/metrics`)).text()
    assert.ok(metrics.includes('\nferry_embedded_workspace_up 0\n'), metrics)
    assert.ok(metrics.includes('\nferry_buffer_points{category="metric"} 2\n'), metrics)
    const failed = agent.logs.filter((l) => l.includes('"event":"workspace_failed"'))
    assert.equal(failed.length, 1)
    assert.match(failed[0], /"code":"storageFailed"/)
  } finally {
    assert.equal(await agent.stop(), 0)
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
})

interface Ping {
  content: { workspace: string }
}

test('a repaired database brings the embedded workspace back without a restart', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-damaged-'))
  const wsDir = path.join(dataDir, 'workspace')
  fs.mkdirSync(wsDir, { recursive: true })
  fs.writeFileSync(path.join(wsDir, 'ferry.duckdb'), Buffer.alloc(64 * 1024, 0x5a))
  const agent = await startAgent(
    { ENV_WORKSPACE_EMBEDDED_RETRY_INITIAL: '100ms', ENV_WORKSPACE_EMBEDDED_RETRY_MAX: '400ms' },
    undefined,
    dataDir,
  )
  try {
    const write = await fetch(`${agent.url}/v1/write/metric`, {
      method: 'POST',
      body: 'cpu,host=a usage=1\ncpu,host=b usage=2',
    })
    assert.equal(write.status, 200)
    const ping = async () => ((await (await fetch(`${agent.url}/v1/ping`)).json()) as Ping).content
    assert.match((await ping()).workspace, /^failed: cannot open /)
    // Attempts keep failing (logged and counted) while the file is garbage.
    await until(async () =>
      agent.logs.filter((l) => l.includes('"event":"workspace_retry_failed"')).length >= 3
        ? true
        : null,
    )
    const retried = agent.logs.filter((l) => l.includes('"event":"workspace_retry_failed"'))
    assert.deepEqual(
      retried.slice(0, 3).map((l) => JSON.parse(l.slice(l.indexOf('{'))).next_ms),
      [200, 400, 400],
    )

    // What an operator does: `ferry workspace repair` moves the unreadable file aside.
    const repair = workspaceCli(wsDir, ['repair'])
    assert.equal(repair.status, 0, repair.stderr)
    assert.match(repair.stdout, /^cannot open the database: /)

    await until(async () => ((await ping()).workspace === 'ok' ? true : null))
    assert.equal(agent.logs.filter((l) => l.includes('"event":"workspace_recovered"')).length, 1)
    const metrics = await (await fetch(`${agent.url}/metrics`)).text()
    assert.ok(metrics.includes('\nferry_embedded_workspace_up 1\n'), metrics)
    // The points buffered while it was down reach it, through the agent's query route too.
    const rows = await until(async () => {
      const values = await firstValues(agent.url, 'M::cpu:(usage) BY host')
      return values.length === 2 ? values : null
    })
    assert.deepEqual(rows, [1, 2])
  } finally {
    assert.equal(await agent.stop(), 0)
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
})
