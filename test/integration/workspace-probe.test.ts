/**
 * A database that opens but whose data blocks are damaged: the start probe refuses it. The
 * embedded workspace fails alone (the agent answers writes 200, buffered, and reports the
 * failure in `/v1/ping`), `ferry workspace` standalone exits 1 with the reason, and once
 * `ferry workspace repair` has copied what it can, the agent's next attempt starts the
 * workspace and the buffered points arrive.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { schemaName } from '../../src/workspace/store/names.js'
import { startAgent } from '../helpers/agent-process.js'
import { firstValues } from '../helpers/agent-query.js'
import { overwriteBlock, victimBlock } from '../helpers/damage.js'
import { FILL_PART, fillWorkspace } from '../helpers/filled-workspace.js'
import { until } from '../helpers/until.js'
import { workspaceCli } from '../helpers/workspace-cli.js'

const POINTS = 3 * FILL_PART

/** `ferry workspace ...` on `dir`, on a free port should it listen. */
const cli = (args: string[], dir: string) =>
  workspaceCli(dir, args, { env: { ENV_WORKSPACE_LISTEN: '127.0.0.1:0' }, timeout: 60_000 })

const REASON =
  /the workspace database is damaged \(table (w_[0-9a-f]+)\.M::cpu:points: IO Error: Corrupt database file: computed checksum \d+ does not match stored checksum \d+ in block at location \d+\); run ferry workspace verify, then ferry workspace repair$/

test('a damaged data block fails the start; repair brings the embedded workspace back', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-probe-'))
  const wsDir = path.join(dataDir, 'workspace')
  const schema = schemaName(await fillWorkspace(wsDir, 3, 'filled'))
  const file = path.join(wsDir, 'ferry.duckdb')
  const victim = await victimBlock(file)
  overwriteBlock(file, victim.block)

  // Standalone, the service does not start: exit 1 with the reason.
  const standalone = cli([], wsDir)
  assert.equal(standalone.status, 1, standalone.stdout)
  const line = standalone.stderr.trimEnd().split('\n').at(-1)!
  assert.ok(line.startsWith('ferry: the workspace database is damaged'), line)
  assert.equal(REASON.exec(line)?.[1], schema, standalone.stderr)

  const agent = await startAgent(
    { ENV_WORKSPACE_EMBEDDED_RETRY_INITIAL: '200ms', ENV_WORKSPACE_EMBEDDED_RETRY_MAX: '1s' },
    undefined,
    dataDir,
  )
  try {
    const write = await fetch(`${agent.url}/v1/write/metric`, {
      method: 'POST',
      body: 'mem,host=a used=1\nmem,host=b used=2',
    })
    assert.equal(write.status, 200)
    const ping = async () =>
      ((await (await fetch(`${agent.url}/v1/ping`)).json()) as { content: { workspace: string } })
        .content.workspace
    const failed = await ping()
    assert.ok(failed.startsWith('failed: the workspace database is damaged'), failed)
    assert.equal(REASON.exec(failed)?.[1], schema, failed)
    const logged = agent.logs.filter((l) => l.includes('"event":"workspace_failed"'))
    assert.equal(logged.length, 1)
    assert.match(logged[0], /"code":"workspaceDamaged"/)
    const metrics = await (await fetch(`${agent.url}/metrics`)).text()
    assert.ok(metrics.includes('\nferry_embedded_workspace_up 0\n'), metrics)
    assert.ok(metrics.includes('\nferry_buffer_points{category="metric"} 2\n'), metrics)

    // Repair, between two start attempts (an attempt holds the file while it probes).
    const repaired = await until(async () => {
      const r = cli(['repair'], wsDir)
      return r.status === 0 ? r : /is in use/.test(r.stderr) ? null : r
    })
    assert.equal(repaired.status, 0, repaired.stderr)
    const lines = repaired.stdout.trimEnd().split('\n')
    assert.equal(
      lines.find((l) => l.startsWith('PARTIAL'))?.replace(/: .*/, ''),
      `PARTIAL\t${schema}.M::cpu:points\t${POINTS - victim.rows} of ${POINTS} rows recovered, ${victim.rows} lost`,
    )

    await until(async () => ((await ping()) === 'ok' ? true : null))
    assert.equal(agent.logs.filter((l) => l.includes('"event":"workspace_recovered"')).length, 1)
    const rows = await until(async () => {
      const values = await firstValues(agent.url, 'M::mem:(used) BY host')
      return values.length === 2 ? values : null
    })
    assert.deepEqual(rows, [1, 2])
  } finally {
    assert.equal(await agent.stop(), 0)
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
})
