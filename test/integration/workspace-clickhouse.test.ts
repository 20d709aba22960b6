/**
 * Two workspace services over one real ClickHouse (a child process on free ports), each with
 * its own directory and port, as two stateless instances behind a load balancer: a body sent
 * to both under one package id is stored once, a workspace and an API key made through one are
 * known to the other, and the Open API (dashboards, host list) and DQL (`/v1/query/raw`) answer
 * from either.
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { clickhouseMissing, startClickHouse, type ClickHouseServer } from '../helpers/clickhouse.js'
import { poll, query, startWorkspace, writeLp, type TestWorkspace } from '../helpers/workspace.js'

const missing = clickhouseMissing()
let server: ClickHouseServer
let a: TestWorkspace
let b: TestWorkspace

before(async () => {
  if (missing) return
  server = await startClickHouse()
  const env = { ENV_WORKSPACE_ENGINE: 'clickhouse', ENV_WORKSPACE_CLICKHOUSE_URL: server.url }
  a = await startWorkspace(env)
  b = await startWorkspace(env)
})
after(async () => {
  await a?.stop()
  await b?.stop()
  await server?.stop()
})

const skip = missing ?? false
const now = () => BigInt(Date.now()) * 1_000_000n

async function count(w: TestWorkspace, table: string): Promise<number> {
  const ws = await w.service.ensureWorkspace('test')
  const deps = w.service.deps!
  const ref = deps.engine.tableRef(ws.id, table)
  if (!ref) return 0
  return Number((await deps.engine.query(`SELECT count() FROM ${ref}`)).rows[0][0])
}

test('both instances serve one workspace: the same token and key', { skip }, async () => {
  assert.equal(a.token, b.token)
  for (const w of [a, b]) {
    const res = await fetch(`${w.base}/api/v1/validate`, { headers: { 'DF-API-KEY': b.key } })
    assert.equal(res.status, 200)
  }
})

test('one package id sent to both instances, and again, is stored once', { skip }, async () => {
  const body = `cpu,host=h1 usage=1 ${now()}\ncpu,host=h2 usage=2 ${now()}`
  const send = (w: TestWorkspace) =>
    fetch(`${w.base}/v1/write/metric?token=${w.token}`, {
      method: 'POST',
      body,
      headers: { 'X-Pkg-Id': 'fy1_test_1_2' },
    })
  const first = await send(a)
  assert.equal(first.status, 200, await first.text())
  const again = await Promise.all([send(a), send(b)])
  for (const r of again)
    assert.deepEqual(((await r.json()) as { content: unknown }).content, {
      stored: 0,
      duplicate: true,
    })
  assert.equal(await count(a, 'M::cpu'), 2)
})

test('a new column added through one instance is written through the other', { skip }, async () => {
  assert.equal((await writeLp(a, 'logging', `app message="one" ${now()}`)).status, 200)
  assert.equal((await writeLp(b, 'logging', `app message="two",level="x" ${now()}`)).status, 200)
  assert.equal((await writeLp(a, 'logging', `app message="three",code=3 ${now()}`)).status, 200)
  const ws = await a.service.ensureWorkspace('test')
  const engine = a.service.deps!.engine
  const r = await engine.query(
    `SELECT message, level, code FROM ${engine.tableRef(ws.id, 'L::app')} ORDER BY time`,
  )
  assert.deepEqual(r.rows, [
    ['one', null, null],
    ['two', 'x', null],
    ['three', null, 3],
  ])
})

test('dashboards and host lists answer from either instance', { skip }, async () => {
  const h = { 'DF-API-KEY': a.key, 'Content-Type': 'application/json' }
  const made = await fetch(`${a.base}/api/v1/dashboards/create`, {
    method: 'POST',
    headers: h,
    body: JSON.stringify({ name: 'Hosts' }),
  })
  assert.equal(made.status, 200, await made.clone().text())
  const id = ((await made.json()) as { content: { uuid: string } }).content.uuid
  const got = await fetch(`${b.base}/api/v1/dashboards/${id}/get`, { headers: h })
  assert.equal(((await got.json()) as { content: { name: string } }).content.name, 'Hosts')
  const objects = [`HOST,name=web-1 os="linux" ${now()}`, `HOST,name=db-1 os="bsd" ${now()}`]
  assert.equal((await writeLp(b, 'object', objects.join('\n'))).status, 200)
  // Instance a learns of the table b made by its catalog refresh (CATALOG_REFRESH_MS).
  const content = await poll(async () => {
    const list = await fetch(`${a.base}/api/v1/object/host/list?search=web`, { headers: h })
    const c = ((await list.json()) as { content: { name: string; os: string }[] }).content
    return c.length ? c : null
  })
  assert.deepEqual(
    content.map((x) => [x.name, x.os]),
    [['web-1', 'linux']],
  )
})

test(
  'a DQL query through /v1/query/raw answers the same series on both instances',
  { skip },
  async () => {
    const t0 = (BigInt(Date.now()) / 60_000n - 5n) * 60_000n * 1_000_000n
    const lines = [0n, 1n, 2n].flatMap((i) => [
      `mem,host=web-1 used=${10n + i} ${t0 + i * 60_000_000_000n}`,
      `mem,host=db-1 used=${20n + i} ${t0 + i * 60_000_000_000n}`,
    ])
    assert.equal((await writeLp(a, 'metric', lines.join('\n'))).status, 200)
    const q = [{ query: 'M::mem:(max(used), count(used)) [10m] BY host', disable_slimit: true }]
    // Instance b learns of the table and its columns a made by its catalog refresh
    // (CATALOG_REFRESH_MS); until it knows `used`, that column reads null there.
    const answers = await Promise.all(
      [a, b].map((w) =>
        poll(async () => {
          const r = await query(w, q)
          assert.equal(r.status, 200, JSON.stringify(r.body))
          const series = r.body.content[0].series
          const known = series.every((s) => s.values.every((v) => v[1] !== null))
          return series.length && known ? series : null
        }),
      ),
    )
    const t = Number(t0 / 1_000_000n)
    const expected = [
      { host: 'db-1', first: t, max: 22 },
      { host: 'web-1', first: t, max: 12 },
    ].map((x) => ({
      name: 'mem',
      tags: { host: x.host },
      columns: ['time', 'max(used)', 'count(used)'],
      values: [[x.first, x.max, 3]],
    }))
    assert.deepEqual(answers[0], expected)
    assert.deepEqual(answers[1], expected)
  },
)
