/**
 * `ferry workspace create|key|verify` against a real ClickHouse (a child process on free
 * ports) with no workspace service running: the commands go to the configured engine, and
 * verify reads every metadata and workspace table, failing (exit 1) on a missing one.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { clickhouseMissing, startClickHouse, type ClickHouseServer } from '../helpers/clickhouse.js'
import { workspaceCli } from '../helpers/workspace-cli.js'

const missing = clickhouseMissing()
const skip = missing ?? false
let server: ClickHouseServer
let dir: string

before(async () => {
  if (missing) return
  server = await startClickHouse()
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-ws-cli-'))
})
after(async () => {
  await server?.stop()
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

const cli = (...args: string[]) =>
  workspaceCli(dir, args, {
    env: { ENV_WORKSPACE_ENGINE: 'clickhouse', ENV_WORKSPACE_CLICKHOUSE_URL: server.url },
    timeout: 60_000,
  })

test(
  'create, key and verify go to ClickHouse; verify fails on a missing table',
  { skip },
  async () => {
    const made = cli('create', 'prod')
    assert.equal(made.status, 0, made.stderr)
    assert.match(made.stdout, /^workspace prod \(wksp_[0-9a-f]+\)/)
    const key = cli('key', 'create', 'prod', 'ci')
    assert.equal(key.status, 0, key.stderr)
    const listed = cli('key', 'list', 'prod')
    assert.match(listed.stdout, /\tci\t.*\tactive/)

    const ok = cli('verify')
    assert.equal(ok.status, 0, ok.stdout + ok.stderr)
    assert.match(ok.stdout, /^ok\tferry_meta\.workspaces\t\d+ rows$/m)
    assert.match(ok.stdout, /^ok\tferry_meta\.api_keys\t2 rows$/m)
    assert.match(ok.stdout, /^11 tables, 0 unreadable$/m)

    const drop = await fetch(server.url, { method: 'POST', body: 'DROP TABLE ferry_meta.labels' })
    assert.equal(drop.status, 200, await drop.text())
    const bad = cli('verify')
    assert.equal(bad.status, 1)
    assert.match(bad.stdout, /^FAILED\tferry_meta\.labels\tmissing$/m)
    assert.match(bad.stdout, /^11 tables, 1 unreadable$/m)
  },
)
