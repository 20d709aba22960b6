/**
 * `ferry workspace verify`: every table read and reported, exit 0; a garbage database file or
 * none at all is reported and exits 1 with one line on stderr.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { test } from 'node:test'
import { startWorkspace, writeLp } from '../helpers/workspace.js'
import { workspaceCli } from '../helpers/workspace-cli.js'

const verify = (dir: string) => workspaceCli(dir, ['verify'])

const EXPECTED = `ok\tmeta.api_keys\t1 rows
ok\tmeta.columns\t2 rows
ok\tmeta.dashboards\t0 rows
ok\tmeta.env_variables\t0 rows
ok\tmeta.labels\t0 rows
ok\tmeta.notes\t0 rows
ok\tmeta.packages\t1 rows
ok\tmeta.replays\t0 rows
ok\tmeta.retention_overrides\t0 rows
ok\tmeta.tables\t1 rows
ok\tmeta.workspaces\t1 rows
ok\tSCHEMA.M::cpu:points\t2 rows
ok\tSCHEMA.M::cpu:series\t2 rows
13 tables, 0 unreadable
`

test('a healthy database: every table read, exit 0', async () => {
  const w = await startWorkspace()
  try {
    assert.equal(
      (await writeLp(w, 'metric', 'cpu,host=a usage=1 1\ncpu,host=b usage=2 2')).status,
      200,
    )
    await w.service.shutdown()
    const r = verify(w.dir)
    assert.equal(r.status, 0, r.stderr)
    const schema = /\tw_([0-9a-f]{32})\./.exec(r.stdout)![1]
    assert.equal(r.stdout, EXPECTED.replaceAll('SCHEMA', `w_${schema}`))
  } finally {
    await w.stop()
  }
})

test('a garbage database file: reported, exit 1', async () => {
  const w = await startWorkspace()
  await w.service.shutdown()
  try {
    const file = `${w.dir}/ferry.duckdb`
    fs.writeFileSync(file, Buffer.alloc(64 * 1024, 0x5a))
    const r = verify(w.dir)
    assert.equal(r.status, 1)
    assert.match(
      r.stdout,
      /^cannot open the database: cannot open .*ferry\.duckdb: .*not a valid DuckDB database file!?\n$/,
    )
    assert.equal(r.stderr, 'ferry: the workspace database cannot be opened\n')
    fs.rmSync(file)
    assert.deepEqual(verify(w.dir), {
      status: 1,
      stdout: `cannot open the database: no database at ${file}\n`,
      stderr: 'ferry: the workspace database cannot be opened\n',
    })
  } finally {
    await w.stop()
  }
})
