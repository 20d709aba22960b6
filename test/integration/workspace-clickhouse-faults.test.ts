/**
 * A workspace over a real ClickHouse (a child process on free ports) that freezes (SIGSTOP) and
 * thaws (SIGCONT): writes get 503 with Retry-After within their deadline (the agent keeps the
 * body), then at once while it stays frozen; ping and /metrics say degraded; a query fails at
 * once too; after the thaw ping says ok again and writes are stored.
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { clickhouseMissing, startClickHouse, type ClickHouseServer } from '../helpers/clickhouse.js'
import { fastFailingClickHouse } from '../helpers/clickhouse-env.js'
import { poll, startWorkspace, writeLp, type TestWorkspace } from '../helpers/workspace.js'

const missing = clickhouseMissing()
const skip = missing ?? false
let server: ClickHouseServer
let w: TestWorkspace

before(async () => {
  if (missing) return
  server = await startClickHouse()
  w = await startWorkspace(fastFailingClickHouse(server.url))
})
after(async () => {
  if (server?.proc.exitCode === null) server.proc.kill('SIGCONT')
  await w?.stop()
  await server?.stop()
})

const now = () => BigInt(Date.now()) * 1_000_000n

async function ping(): Promise<{ status: string; reason?: string }> {
  const res = await fetch(`${w.base}/v1/ping`)
  return ((await res.json()) as { content: { status: string; reason?: string } }).content
}

async function gauge(): Promise<string | undefined> {
  const text = await (await fetch(`${w.base}/metrics`)).text()
  return /^ferry_workspace_storage_unavailable (\S+)$/m.exec(text)?.[1]
}

async function timed<T>(f: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = Date.now()
  const value = await f()
  return { value, ms: Date.now() - t0 }
}

test(
  'a frozen ClickHouse: 503 + Retry-After in bounded time, degraded, then ok',
  { skip },
  async () => {
    const first = await writeLp(w, 'metric', `cpu,host=a usage=1 ${now()}`)
    assert.equal(first.status, 200, await first.text())
    assert.deepEqual(await ping(), { service: 'ferry-workspace', status: 'ok' })
    assert.equal(await gauge(), '0')

    server.proc.kill('SIGSTOP')
    // Deadlines: a dedupe lookup and an insert of 3 s each at most, plus the answer.
    const stalled = await timed(() => writeLp(w, 'metric', `cpu,host=a usage=2 ${now()}`))
    assert.equal(stalled.value.status, 503, await stalled.value.text())
    assert.equal(stalled.value.headers.get('Retry-After'), '5')
    assert.ok(stalled.ms < 10_000, `waited ${stalled.ms} ms`)

    const degraded = await poll(async () => {
      const p = await ping()
      return p.status === 'degraded' ? p : null
    })
    assert.match(degraded.reason ?? '', /ClickHouse did not answer/)
    assert.equal(await gauge(), '1')
    // While down nothing waits out a deadline: writes and queries fail at once.
    const fast = await timed(() => writeLp(w, 'metric', `cpu,host=a usage=3 ${now()}`))
    assert.equal(fast.value.status, 503)
    assert.equal(fast.value.headers.get('Retry-After'), '5')
    assert.match(await fast.value.text(), /ClickHouse is unavailable/)
    assert.ok(fast.ms < 2_500, `waited ${fast.ms} ms`)
    const engine = w.service.deps!.engine
    await assert.rejects(engine.query('SELECT 1'), { code: 'storageFailed' })

    server.proc.kill('SIGCONT')
    await poll(async () => ((await ping()).status === 'ok' ? true : null))
    assert.equal(await gauge(), '0')
    const again = await writeLp(w, 'metric', `cpu,host=b usage=4 ${now()}`)
    assert.equal(again.status, 200, await again.text())
    const ws = await w.service.ensureWorkspace('test')
    const r = await engine.query(
      `SELECT host FROM ${engine.tableRef(ws.id, 'M::cpu')} ORDER BY time`,
    )
    // Neither refused write was stored: the stalled one timed out before its insert was sent.
    assert.deepEqual(r.rows, [['a'], ['b']])
  },
)

/** A statement straight to the server, around the workspace (to break one table on purpose). */
async function sql(statement: string): Promise<void> {
  const res = await fetch(server.url, { method: 'POST', body: statement })
  assert.equal(res.status, 200, await res.text())
}

/** Makes every insert into `table` fail (a materialized column that throws) or work again. */
const refuse = (table: string, column: string) =>
  sql(`ALTER TABLE ${table} ADD COLUMN refuse UInt8 MATERIALIZED throwIf(${column} > 0)`)
const accept = (table: string) => sql(`ALTER TABLE ${table} DROP COLUMN refuse`)

async function residual(reason: string): Promise<string | undefined> {
  const text = await (await fetch(`${w.base}/metrics`)).text()
  const re = new RegExp(
    `^ferry_workspace_dedupe_residual_total\\{reason="${reason}"\\} (\\S+)$`,
    'm',
  )
  return re.exec(text)?.[1]
}

function send(body: string, pkgId: string): Promise<Response> {
  return fetch(`${w.base}/v1/write/metric?token=${w.token}`, {
    method: 'POST',
    body,
    headers: { 'X-Pkg-Id': pkgId },
  })
}

async function rows(table: string, where: string): Promise<number> {
  const ws = await w.service.ensureWorkspace('test')
  const engine = w.service.deps!.engine
  const ref = engine.tableRef(ws.id, table)
  return Number((await engine.query(`SELECT count() FROM ${ref} WHERE ${where}`)).rows[0][0])
}

test(
  'rows stored without their package record: answered stored, counted; a re-send is stored again',
  { skip },
  async () => {
    await refuse('ferry_meta.packages', 'seen_at')
    const body = `cpu,host=unrecorded usage=1 ${now()}`
    const first = await send(body, 'fy1_residual_1_1')
    assert.equal(first.status, 200, await first.text())
    assert.equal(await residual('unrecorded'), '1')
    await accept('ferry_meta.packages')
    // Nothing recorded the id, so the same body again is stored again: the residual duplicate.
    const again = await send(body, 'fy1_residual_1_1')
    assert.deepEqual(((await again.json()) as { content: unknown }).content, {
      stored: 1,
      duplicate: false,
    })
    assert.equal(await rows('M::cpu', "host = 'unrecorded'"), 2)
  },
)

test(
  'a body stored in part: 503, counted; its retry stores the first table again',
  { skip },
  async () => {
    assert.equal((await writeLp(w, 'metric', `zmem,host=p used=1 ${now()}`)).status, 200)
    const ws = await w.service.ensureWorkspace('test')
    // A metric table reads as its points joined to its series: break the points table itself.
    const read = w.service.deps!.engine.tableRef(ws.id, 'M::zmem')!
    const memRef = /FROM (`[^`]+`\.`M::zmem`)/.exec(read)?.[1] ?? read
    await refuse(memRef, 'time')
    const body = `cpu,host=partial usage=1 ${now()}\nzmem,host=partial used=2 ${now()}`
    const first = await send(body, 'fy1_residual_2_1')
    assert.equal(first.status, 503, await first.text())
    assert.equal(await residual('partial'), '1')
    await accept(memRef)
    assert.equal((await send(body, 'fy1_residual_2_1')).status, 200)
    assert.equal(await rows('M::cpu', "host = 'partial'"), 2)
    assert.equal(await rows('M::zmem', "host = 'partial'"), 1)
  },
)
