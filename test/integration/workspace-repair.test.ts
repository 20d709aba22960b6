/**
 * `ferry workspace repair` on really damaged files: a block of one row group overwritten (the
 * rows of that group are lost, every other row is copied, the file is swapped and then verifies
 * and serves), a truncated file (nothing readable: moved aside, the next start is empty), and a
 * healthy one (left alone).
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { test } from 'node:test'
import { loadConfig } from '../../src/config/load.js'
import { silentLogger } from '../../src/telemetry/logger.js'
import { WorkspaceService } from '../../src/workspace/service.js'
import { overwriteBlock, victimBlock } from '../helpers/damage.js'
import { FILL_PART, writeCpuPoints } from '../helpers/filled-workspace.js'
import { query, startWorkspace, type TestWorkspace } from '../helpers/workspace.js'
import { workspaceCli } from '../helpers/workspace-cli.js'

const POINTS = 3 * FILL_PART

const cli = (verb: string, dir: string) => workspaceCli(dir, [verb])

/** A workspace with POINTS rows in `M::cpu` (three row groups and a bit), then stopped. */
async function filled(): Promise<TestWorkspace> {
  const w = await startWorkspace({ ENV_WORKSPACE_THREADS: '1' })
  await writeCpuPoints(`${w.base}/v1/write/metric?token=${w.token}`, 3)
  await w.service.shutdown()
  return w
}

async function countRows(dir: string): Promise<number> {
  const { config } = loadConfig('/nonexistent', { ENV_WORKSPACE_LISTEN: '127.0.0.1:0' })
  const service = new WorkspaceService(config.workspace, dir, silentLogger())
  await service.start()
  try {
    const ws = await service.ensureWorkspace('test')
    const w = {
      base: `http://127.0.0.1:${service.address().port}`,
      token: ws.token,
    } as TestWorkspace
    const r = await query(w, [
      { query: 'M::cpu:(count(usage))', time_range: [Date.now() - 86_400_000, Date.now()] },
    ])
    assert.equal(r.status, 200, JSON.stringify(r.body))
    return (r.body.content[0].series[0]?.values[0][1] as number | undefined) ?? 0
  } finally {
    await service.shutdown()
  }
}

test('a damaged block: its row group is lost, every other row recovered, the file swapped', async () => {
  const w = await filled()
  try {
    const file = `${w.dir}/ferry.duckdb`
    const victim = await victimBlock(file)
    assert.ok(victim.rows >= 1 && victim.rows < POINTS, JSON.stringify(victim))
    overwriteBlock(file, victim.block)
    assert.equal(cli('verify', w.dir).status, 1)

    const r = cli('repair', w.dir)
    assert.equal(r.status, 0, r.stderr)
    const lines = r.stdout.trimEnd().split('\n')
    const schema = /\t(w_[0-9a-f]{32})\./.exec(r.stdout)![1]
    const partial = lines.find((l) => l.startsWith('PARTIAL'))!
    assert.match(
      partial,
      new RegExp(
        `^PARTIAL\\t${schema}\\.M::cpu:points\\t${POINTS - victim.rows} of ${POINTS} rows recovered, ${victim.rows} lost: .*Corrupt database file: computed checksum`,
      ),
    )
    assert.deepEqual(
      lines.filter((l) => l.startsWith('ok\tmeta.')),
      [
        'ok\tmeta.api_keys\t1 rows',
        'ok\tmeta.columns\t2 rows',
        'ok\tmeta.dashboards\t0 rows',
        'ok\tmeta.env_variables\t0 rows',
        'ok\tmeta.labels\t0 rows',
        'ok\tmeta.notes\t0 rows',
        'ok\tmeta.packages\t3 rows',
        'ok\tmeta.replays\t0 rows',
        'ok\tmeta.retention_overrides\t0 rows',
        'ok\tmeta.tables\t1 rows',
        'ok\tmeta.workspaces\t1 rows',
      ],
    )
    assert.equal(
      lines.at(-2),
      // 5 rows of meta tables, the 3 bodies' package records and the 10 series (hosts) besides
      // the points.
      `13 tables, 1 partial: ${POINTS - victim.rows + 5 + 3 + 10} rows recovered, ${victim.rows} lost`,
    )
    const moved = /^moved the damaged file to (.*ferry\.duckdb\.damaged-\S+)$/.exec(
      lines.at(-1)!,
    )![1]
    assert.ok(fs.existsSync(moved))
    assert.equal(fs.existsSync(`${file}.repairing`), false)

    assert.equal(cli('verify', w.dir).status, 0)
    assert.equal(cli('repair', w.dir).stdout, 'every table reads in full: nothing to repair\n')
    assert.equal(await countRows(w.dir), POINTS - victim.rows)
  } finally {
    await w.stop()
  }
})

test('a file truncated to its headers: nothing readable, moved aside; the next start is empty', async () => {
  const w = await filled()
  try {
    const file = `${w.dir}/ferry.duckdb`
    // The headers survive, every block (the metadata among them) is gone.
    fs.truncateSync(file, 16 * 1024)
    const r = cli('repair', w.dir)
    assert.equal(r.status, 0, r.stderr)
    assert.match(
      r.stdout,
      /^cannot open the database: IO Error: Could not read enough bytes from file .*\nnothing in it can be read; the workspace starts with an empty database\nmoved the damaged file to .*ferry\.duckdb\.damaged-\S+\n$/,
    )
    assert.equal(fs.existsSync(file), false)
    assert.equal(await countRows(w.dir), 0)
    assert.deepEqual(cli('repair', w.dir), {
      status: 0,
      stdout: 'every table reads in full: nothing to repair\n',
      stderr: '',
    })
  } finally {
    await w.stop()
  }
})
