/**
 * The series layout of metric tables on a real ClickHouse (store/clickhouse/series-table.ts):
 * points carry the tag set's id (series-id.ts), series rows are written by every instance as
 * often as it likes and never multiply a point, a flat metric table made before the layout is
 * still read and written flat, retention drops the same days of both tables, and keys named as
 * the layout's own columns keep columns of their own.
 */
import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { ClickHouseEngine } from '../../../src/workspace/store/clickhouse/engine.js'
import { seriesId } from '../../../src/workspace/store/clickhouse/series-id.js'
import { fingerprintReady } from '../../../src/workspace/ingest/fingerprint.js'
import { useClickHouse } from '../../helpers/clickhouse.js'
import { count, request } from './engine-contract.js'
import { planQuery, runQueries } from '../../../src/workspace/dql/execute.js'

const ch = useClickHouse()
const WS = 'wksp_contract'
const DAY_NS = 86_400_000_000_000n
const now = BigInt(Date.now()) * 1_000_000n
before(() => fingerprintReady)

async function open(prefix: string) {
  const client = ch.client()
  const engine = await ClickHouseEngine.open(client, {
    prefix,
    dedupeWindowMs: 3_600_000,
    dedupeByContent: false,
    maxPendingPoints: 100_000,
    insertTimeoutMs: 10_000,
    queryTimeoutMs: 10_000,
  })
  return { engine, client, close: async () => (await engine.close(), await client.close()) }
}

const rows = async (e: ClickHouseEngine, sql: string) => (await e.query(sql)).rows

if (ch.missing) console.log(`# skipped: ${ch.missing}`)
else {
  test('points carry the id of their tag set; series rows hold the tags', async () => {
    const { engine: e, close } = await open('sl1')
    try {
      await e.ingest(
        request(`cpu,host=a,region=eu usage=1 ${now}\ncpu,host=b usage=2 ${now}`, null),
      )
      const info = e.catalog.table(WS, 'M::cpu')!
      assert.ok(info.parts, 'series layout')
      const sids = await rows(
        e,
        `SELECT toString(_sid) FROM sl1_w_contract.\`M::cpu\` ORDER BY usage`,
      )
      const a = seriesId([
        ['host', 'a'],
        ['region', 'eu'],
      ])
      assert.deepEqual(sids.flat(), [String(a), String(seriesId([['host', 'b']]))])
      const series = await rows(
        e,
        `SELECT toString(_sid), host, region FROM sl1_w_contract_series.\`M::cpu\` ORDER BY host`,
      )
      assert.deepEqual(series, [
        [String(a), 'a', 'eu'],
        [String(seriesId([['host', 'b']])), 'b', null],
      ])
      const flat = await rows(
        e,
        `SELECT host, region, usage FROM ${e.tableRef(WS, 'M::cpu')} ORDER BY usage`,
      )
      assert.deepEqual(flat, [
        ['a', 'eu', 1],
        ['b', null, 2],
      ])
    } finally {
      await close()
    }
  })

  test('two instances writing one series: each point is read once', async () => {
    const [x, y] = [await open('sl2'), await open('sl2')]
    try {
      for (const [i, { engine }] of [x, y, x, y].entries())
        await engine.ingest(request(`cpu,host=a usage=${i} ${now + BigInt(i)}`, null))
      await x.engine.catalog.refresh()
      const series = await rows(x.engine, 'SELECT count() FROM sl2_w_contract_series.`M::cpu`')
      assert.ok(Number(series[0][0]) >= 2, 'each instance wrote the series row')
      assert.equal(await count(x.engine, 'M::cpu'), 4)
      const byHost = `SELECT host, count() FROM ${x.engine.tableRef(WS, 'M::cpu')} GROUP BY host`
      assert.deepEqual(await rows(x.engine, byHost), [['a', 4n]])
    } finally {
      await Promise.all([x.close(), y.close()])
    }
  })

  test('a flat metric table made before the layout is still read and written flat', async () => {
    const first = await open('sl3')
    const db = 'sl3_w_contract'
    const run = (sql: string) => first.client.command(sql, { timeoutMs: 10_000 })
    // What an older version made: one table with the tags on every row, no layout record.
    await run(`CREATE DATABASE ${db}`)
    await run(
      `CREATE TABLE ${db}.\`M::cpu\`
       (\`time\` Int64, host Nullable(String), usage Nullable(Float64))
       ENGINE = MergeTree PARTITION BY toDate(intDiv(\`time\`, 1000000000)) ORDER BY \`time\``,
    )
    await run(
      `INSERT INTO sl3_meta.columns (workspace_id, tbl, col, pos, kind, type, deleted, version)
       VALUES ('${WS}', 'M::cpu', 'host', 0, 'tag', 'VARCHAR', 0, 1),
              ('${WS}', 'M::cpu', 'usage', 1, 'field', 'DOUBLE', 0, 1)`,
    )
    await run(`INSERT INTO ${db}.\`M::cpu\` VALUES (${now}, 'a', 1)`)
    await first.close()
    const { engine: e, close } = await open('sl3')
    try {
      assert.equal(e.catalog.table(WS, 'M::cpu')!.parts, null)
      await e.ingest(request(`cpu,host=b,rack=r1 usage=2 ${now + 1n}`, null))
      assert.equal(e.catalog.table(WS, 'M::cpu')!.parts, null)
      const all = `SELECT host, rack, usage FROM ${e.tableRef(WS, 'M::cpu')} ORDER BY usage`
      assert.deepEqual(await rows(e, all), [
        ['a', null, 1],
        ['b', 'r1', 2],
      ])
      // A new metric table in the same workspace takes the series layout.
      await e.ingest(request(`mem,host=b used=2 ${now}`, null))
      assert.ok(e.catalog.table(WS, 'M::mem')!.parts)
    } finally {
      await close()
    }
  })

  test('retention drops the same days of the points and of their series rows', async () => {
    const { engine: e, close } = await open('sl4')
    try {
      await e.ingest(
        request(`cpu,host=old v=1 ${now - 3n * DAY_NS}\ncpu,host=new v=2 ${now}`, null),
      )
      const cfg = { retention_metric: 86_400_000, retention_logging: 0, retention_default: 0 }
      assert.deepEqual(await e.retain(cfg), [{ workspace: WS, category: 'metric', rows: 1 }])
      const series = await rows(e, 'SELECT host FROM sl4_w_contract_series.`M::cpu`')
      assert.deepEqual(series, [['new']])
      // Points of a dropped day arriving later write their series row again.
      await e.ingest(request(`cpu,host=old v=3 ${now - 3n * DAY_NS}`, null))
      const back = `SELECT host, v FROM ${e.tableRef(WS, 'M::cpu')} ORDER BY v`
      assert.deepEqual(await rows(e, back), [
        ['new', 2],
        ['old', 3],
      ])
    } finally {
      await close()
    }
  })

  test("keys named as the layout's own columns keep columns of their own", async () => {
    const { engine: e, close } = await open('sl5')
    try {
      await e.ingest(request(`cpu,_sid=x,host=a _day=1,_sid~=2 ${now}`, null))
      const info = e.catalog.table(WS, 'M::cpu')!
      const phys = info.columns.map((c) => [c.name, c.phys])
      assert.deepEqual(phys.sort(), [
        ['_day', '_day~'],
        ['_sid', '_sid~'],
        ['_sid~', '_sid~~'],
        ['host', 'host'],
      ])
      const got = `SELECT \`_sid~\`, host, \`_day~\`, \`_sid~~\` FROM ${e.tableRef(WS, 'M::cpu')}`
      assert.deepEqual(await rows(e, got), [['x', 'a', 1, 2]])
    } finally {
      await close()
    }
  })

  test('DQL: a condition on tags alone reads only its series, one with a field all', async () => {
    const { engine: e, close } = await open('sl6')
    try {
      const body = [
        `cpu,host=a,region=eu usage=1 ${now - 2_000_000n}`,
        `cpu,host=b,region=us usage=3 ${now - 2_000_000n}`,
        `cpu,host=a,region=eu usage=5 ${now - 1_000_000n}`,
      ]
      await e.ingest(request(body.join('\n'), null))
      const ctx = { engine: e, workspaceId: WS, maxRows: 1000, timeoutMs: 10_000 }
      const ask = async (query: string) => {
        const [r] = await runQueries(ctx, { queries: [{ query }] })
        return r.series.map((s) => [s.tags ?? null, s.values.map((v) => v[1])])
      }
      const oneHost = "M::cpu:(avg(usage)) {host='a'} [10m] BY host"
      assert.deepEqual(await ask(oneHost), [[{ host: 'a' }, [3]]])
      assert.deepEqual(await ask("M::cpu:(sum(usage)) {host='b' or usage > 4} [10m]"), [
        [null, [8]],
      ])
      assert.deepEqual(await ask("M::cpu:(max(usage)) {region!='eu'} [10m] BY host"), [
        [{ host: 'b' }, [3]],
      ])
      const sql = (q: string) => planQuery(ctx, { query: q }, 0).plan.sql
      const pushed =
        '`_sid` IN (SELECT `_sid` FROM `sl6_w_contract_series`.`M::cpu` WHERE (`host` = $'
      assert.ok(sql(oneHost).includes(pushed), sql(oneHost))
      const mixed = sql("M::cpu:(sum(usage)) {host='b' or usage > 4} [10m]")
      assert.ok(!mixed.includes('`_sid` IN ('), mixed)
    } finally {
      await close()
    }
  })
}
