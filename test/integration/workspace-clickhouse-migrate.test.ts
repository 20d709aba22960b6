/**
 * `ferry workspace migrate --to clickhouse` against a real ClickHouse (a child process on free
 * ports): a DuckDB workspace filled through the write path and the metadata store is copied,
 * then a workspace service on ClickHouse answers with the same ids, token, key, metadata, row
 * counts and DQL answers as the DuckDB one did; migrating again stores nothing twice.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, before, test } from 'node:test'
import { runQueries, type QueryResult } from '../../src/workspace/dql/execute.js'
import { clickhouseMissing, startClickHouse, type ClickHouseServer } from '../helpers/clickhouse.js'
import { startWorkspace, writeLp, type TestWorkspace } from '../helpers/workspace.js'
import { workspaceCli } from '../helpers/workspace-cli.js'
import { logLines, metricLines, NOW, objectLines } from '../unit/workspace/dataset.js'

const missing = clickhouseMissing()
const skip = missing ?? false
let server: ClickHouseServer
let duck: TestWorkspace

const QUERIES = [
  'M::cpu:(avg(usage_idle)) [1h::10m] BY host',
  "M::cpu:(usage_idle) {host='h2'} [1h]",
  "L::nginx:(message) {message = match('GET')}",
  'O::HOST:(os, cpu_cores)',
]

async function ask(w: TestWorkspace, query: string): Promise<QueryResult> {
  const ws = await w.service.ensureWorkspace('test')
  const engine = w.service.deps!.engine
  const ctx = { engine, workspaceId: ws.id, maxRows: 1000, timeoutMs: 10_000, now: () => NOW }
  const [r] = await runQueries(ctx, { queries: [{ query }] })
  return r
}

/** Rows per table of the test workspace, by plain count through the engine. */
async function counts(w: TestWorkspace): Promise<Record<string, number>> {
  const ws = await w.service.ensureWorkspace('test')
  const { engine } = w.service.deps!
  const out: Record<string, number> = {}
  for (const t of engine.catalog.tableNames(ws.id).sort()) {
    const r = await engine.query(`SELECT count(*) FROM ${engine.tableRef(ws.id, t)}`)
    out[t] = Number(r.rows[0][0])
  }
  return out
}

let before_: { counts: Record<string, number>; answers: unknown[]; token: string; key: string }

before(async () => {
  if (missing) return
  server = await startClickHouse()
  duck = await startWorkspace()
  for (const [cat, body] of [
    ['metric', metricLines()],
    ['logging', logLines()],
    ['object', objectLines()],
  ]) {
    const res = await writeLp(duck, cat, body)
    assert.equal(res.status, 200, await res.text())
  }
  const d = duck.service.deps!
  const ws = await duck.service.ensureWorkspace('test')
  await d.dashboards.create(ws.id, { name: 'Hosts', tagNames: ['x'] }, 'ak_1')
  await d.labels.set(ws.id, {
    object_class: 'HOST',
    object_name: 'h1',
    key: 'k',
    value: 'v',
    labels: ['blue'],
  })
  await d.envVariables.set(ws.id, '', 'level', 'info')
  await d.retentionOverrides.set(ws.id, 'logging', 86_400_000)
  await d.replays.store(ws.id, {
    fields: { app_id: 'app', session_id: 's1' },
    segment: new Uint8Array(40),
  })
  const answers = []
  for (const q of QUERIES) answers.push((await ask(duck, q)).series)
  before_ = { counts: await counts(duck), answers, token: duck.token, key: duck.key }
  // Stopped (the migration opens the file), its directory kept.
  await duck.service.shutdown()
})
after(async () => {
  await server?.stop()
  if (duck) fs.rmSync(duck.dir, { recursive: true, force: true })
})

const env = () => ({ ENV_WORKSPACE_ENGINE: 'duckdb', ENV_WORKSPACE_CLICKHOUSE_URL: server.url })
const migrate = () =>
  workspaceCli(duck.dir, ['migrate', '--to', 'clickhouse', '--batch', '7'], {
    env: env(),
    timeout: 120_000,
  })

test(
  'migrate copies metadata and points; a second run stores nothing again',
  { skip },
  async () => {
    const first = migrate()
    assert.equal(first.status, 0, first.stdout + first.stderr)
    assert.match(first.stdout, /^meta\tworkspaces\t1 rows$/m)
    assert.match(first.stdout, /^meta\tapi_keys\t\d+ rows$/m)
    assert.match(first.stdout, /^meta\tdashboards\t1 rows$/m)
    assert.match(first.stdout, /^meta\treplays\t1 rows$/m)
    assert.match(
      first.stdout,
      /^points\twksp_\w+\tM::cpu\t(\d+) rows, \1 stored now, \d+ batches$/m,
    )
    assert.match(first.stdout, /, 0 already there\); 0 batches may be stored twice$/m)

    const again = migrate()
    assert.equal(again.status, 0, again.stdout + again.stderr)
    assert.match(again.stdout, /^points\twksp_\w+\tM::cpu\t\d+ rows, 0 stored now, \d+ batches$/m)
    assert.match(again.stdout, /\(0 stored now, \d+ already there\)/)

    const ch = await startWorkspace({
      ENV_WORKSPACE_ENGINE: 'clickhouse',
      ENV_WORKSPACE_CLICKHOUSE_URL: server.url,
    })
    try {
      assert.deepEqual(await counts(ch), before_.counts)
      for (const [i, q] of QUERIES.entries())
        assert.deepEqual((await ask(ch, q)).series, before_.answers[i], q)
      const d = ch.service.deps!
      const ws = await d.accounts.byToken(before_.token)
      assert.equal(ws?.name, 'test')
      assert.deepEqual(await d.accounts.byApiKey(before_.key), ws)
      const boards = await d.dashboards.list(ws!.id, { search: '', tagNames: [] }, 0, 10)
      assert.deepEqual(
        boards.items.map((b) => [b.name, b.tagNames]),
        [['Hosts', ['x']]],
      )
      assert.deepEqual([...(await d.labels.forClass(ws!.id, 'HOST'))], [['h1', ['blue']]])
      assert.deepEqual(await d.envVariables.forApp(ws!.id, 'any'), { level: 'info' })
      const kept = await d.retentionOverrides.list(ws!.id)
      assert.deepEqual(
        kept.map((o) => [o.category, o.keepMs]),
        [['logging', 86_400_000]],
      )
      assert.equal((await d.replays.list(ws!.id, 0, 10)).length, 1)
    } finally {
      await ch.stop()
    }
  },
)
