/**
 * Damage the start probe does not read (an old row group of a table larger than the probe's
 * rows) is met by the first query that scans it: the embedded workspace keeps running and the
 * query is answered an error, and from then on the agent reports the damage: `/v1/ping` shows
 * the workspace degraded with DuckDB's message and what to run, its health carries the reason,
 * `/metrics` has `ferry_embedded_workspace_damaged 1`, and the log has one `workspace_damaged`
 * line per message however many calls fail on it. Standalone, the service's own answers and
 * `/metrics` say it.
 *
 * The table gets more rows than the probe reads through eleven writes of 100,000 points (about
 * 8 s on a 2-core machine), so the damaged block is one only a full scan reads.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { loadConfig } from '../../src/config/load.js'
import { silentLogger } from '../../src/telemetry/logger.js'
import { WorkspaceService } from '../../src/workspace/service.js'
import { PROBE_ROWS } from '../../src/workspace/store/probe.js'
import { startAgent } from '../helpers/agent-process.js'
import { oldBlock, overwriteBlock } from '../helpers/damage.js'
import { FILL_PART, fillWorkspace } from '../helpers/filled-workspace.js'
import { until } from '../helpers/until.js'

const PARTS = 11

/** The service on its own (`ferry workspace`): the damage is in its answers and `/metrics`. */
async function standalone(dir: string): Promise<void> {
  const { config } = loadConfig('/nonexistent', { ENV_WORKSPACE_LISTEN: '127.0.0.1:0' })
  const heard: string[] = []
  const service = new WorkspaceService(config.workspace, dir, silentLogger(), {
    damaged: (m) => heard.push(m),
  })
  await service.start()
  try {
    const ws = await service.ensureWorkspace(config.workspace.default_workspace)
    const base = `http://127.0.0.1:${service.address().port}`
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${base}/v1/query/raw?token=${ws.token}`, {
        method: 'POST',
        body: JSON.stringify({ queries: [{ query: 'M::cpu:(sum(usage))' }] }),
      })
      assert.equal(res.status, 500)
      assert.equal(((await res.json()) as { errorCode: string }).errorCode, 'WorkspaceDamaged')
    }
    assert.equal(heard.length, 3)
    assert.ok(MESSAGE.test(heard[0]), heard[0])
    const metrics = await (await fetch(`${base}/metrics`)).text()
    assert.ok(metrics.includes('\nferry_workspace_damage_errors_total 3\n'), metrics)
    assert.ok(
      metrics.includes('\nferry_workspace_rejected_requests_total{code="workspaceDamaged"} 3\n'),
      metrics,
    )
  } finally {
    await service.shutdown()
  }
}

const DAMAGED =
  /^the workspace database is damaged \((.*)\); run ferry workspace verify, then ferry workspace repair$/
const MESSAGE =
  /^IO Error: Corrupt database file: computed checksum \d+ does not match stored checksum \d+ in block at location \d+$/

interface Ping {
  content: { workspace: string; health: { status: string; reasons: string[] } }
}

test('damage met by a query while running degrades the embedded workspace, reported in ping, health and metrics', async () => {
  // The probe reads the newest PROBE_ROWS rows: the rows before them are read by scans only.
  const unprobed = PARTS * FILL_PART - PROBE_ROWS
  assert.ok(unprobed > 0)
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-damage-running-'))
  const wsDir = path.join(dataDir, 'workspace')
  const started = Date.now()
  await fillWorkspace(wsDir, PARTS)
  const filledMs = Date.now() - started
  const file = path.join(wsDir, 'ferry.duckdb')
  overwriteBlock(file, await oldBlock(file, unprobed))
  await standalone(wsDir)

  const agent = await startAgent({}, undefined, dataDir)
  try {
    const ping = async () => ((await (await fetch(`${agent.url}/v1/ping`)).json()) as Ping).content
    assert.equal((await ping()).workspace, 'ok', `filled in ${filledMs} ms`)
    const query = async () => {
      const res = await fetch(`${agent.url}/v1/query/raw`, {
        method: 'POST',
        body: JSON.stringify({ queries: [{ query: 'M::cpu:(sum(usage))' }] }),
      })
      return { status: res.status, body: await res.text() }
    }
    // The agent forwards the workspace's envelope as its query route does (HTTP 200).
    const first = await query()
    assert.equal(first.status, 200, first.body)
    const { traceId, ...answer } = JSON.parse(first.body) as Record<string, unknown>
    assert.match(String(traceId), /^[0-9a-f]{32}$/)
    const damage = DAMAGED.exec(String(answer.message))
    assert.ok(damage && MESSAGE.test(damage[1]), first.body)
    assert.deepEqual(answer, {
      code: 500,
      // A failed query keeps the shape clients index into (content[0].series).
      content: [{ series: [] }],
      errorCode: 'WorkspaceDamaged',
      message: `the workspace database is damaged (${damage[1]}); run ferry workspace verify, then ferry workspace repair`,
      success: false,
    })
    // Every later query fails alike; the log still gets one line for the message.
    for (let i = 0; i < 5; i++)
      assert.equal(
        (JSON.parse((await query()).body) as { message: string }).message,
        answer.message,
      )

    const content = await until(async () => {
      const c = await ping()
      return c.workspace !== 'ok' && c.health.status !== 'ok' ? c : null
    }, 10_000)
    assert.equal(content.workspace, `degraded: ${answer.message}`)
    assert.deepEqual(content.health, {
      status: 'degraded',
      reasons: ['embedded workspace database damaged'],
    })
    const metrics = await (await fetch(`${agent.url}/metrics`)).text()
    assert.ok(metrics.includes('\nferry_embedded_workspace_damaged 1\n'), metrics)
    assert.ok(metrics.includes('\nferry_embedded_workspace_up 1\n'), metrics)

    const logged = agent.logs.filter((l) => l.includes('"event":"workspace_damaged"'))
    assert.equal(logged.length, 1, logged.join('\n'))
    const line = JSON.parse(logged[0]) as Record<string, unknown>
    assert.equal(line.level, 'error')
    assert.equal(line.reason, damage[1])
    assert.equal(line.msg, answer.message)
    assert.equal(line.repeated, 0)
    assert.equal(agent.logs.filter((l) => l.includes('"event":"internal_error"')).length, 0)
  } finally {
    assert.equal(await agent.stop(), 0)
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
})
