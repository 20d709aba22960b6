/**
 * A damaged workspace database fails the embedded workspace alone: the agent starts, logs the
 * failure, accepts writes into its disk buffer and reports the failure in `/v1/ping` and
 * `/metrics`.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { startAgent } from '../helpers/agent-process.js'

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
