/** `ferry pipeline test --multiline`: the MySQL slow-log sample becomes one record that parses. */
import assert from 'node:assert/strict'
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { pipelineTest } from '../../../src/pipeline/cli.js'

interface Case {
  id: string
  input: string
  script: string
}
const FIXTURE = new URL('../../fixtures/pipeline-cases.json', import.meta.url)
const mysql = (JSON.parse(readFileSync(FIXTURE, 'utf8')) as Case[]).find(
  (c) => c.id === 'mysql-slow',
)!
const dir = mkdtempSync(path.join(os.tmpdir(), 'ferry-pl-cli-'))
after(() => rmSync(dir, { recursive: true, force: true }))

function run(multiline?: string) {
  writeFileSync(path.join(dir, 'mysql.p'), mysql.script)
  writeFileSync(path.join(dir, 'slow.log'), mysql.input + '\n')
  const o = { script: path.join(dir, 'mysql.p'), input: path.join(dir, 'slow.log'), multiline }
  return pipelineTest({ ...o, timezone: 'UTC' })
}

test('pipeline test: without --multiline every unindented line is a record', async () => {
  const r = await run()
  assert.equal(r.text.split('\n').length, 7)
  assert.ok(!r.text.includes('db_slow_statement'))
})

test('pipeline test: --multiline joins the slow-log entry and the script extracts it', async () => {
  const r = await run('^# Time')
  const lines = r.text.split('\n')
  assert.equal(lines.length, 1)
  const p = JSON.parse(lines[0]) as { fields: Record<string, unknown>; run_error: unknown }
  assert.equal(r.ok, true)
  assert.equal(p.run_error, null)
  assert.equal(p.fields.db_user, 'root[root]')
  assert.equal(p.fields.rows_sent, 248832)
  assert.equal(
    p.fields.db_slow_statement,
    'SET timestamp=1574851393;\nSELECT * FROM fruit f1, fruit f2, fruit f3, fruit f4, fruit f5',
  )
})
