/**
 * DQL on a workspace over a real ClickHouse (one child process for the file): the golden cases
 * (test/golden/dql.json) answer exactly what they answer on DuckDB (the SQL differs, the series,
 * tags, columns, values and search_after must not), so do the function cases
 * (dql-functions-cases.ts), and the twenty everyday queries answer with data; queries the
 * golden file lacks (per-series OFFSET, rollups BY, math, deep paging) answer as on a DuckDB
 * workspace holding the same dataset. Skips, saying
 * why, where clickhouse-server is not installed.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, test } from 'node:test'
import {
  clickhouseMissing,
  startClickHouse,
  type ClickHouseServer,
} from '../../helpers/clickhouse.js'
import { datasetContext } from './dql-fixture.js'
import { functionCases } from './dql-functions-cases.js'

interface Case {
  query: string
  options?: Record<string, unknown>
  result: unknown
}

const read = (url: string) => JSON.parse(fs.readFileSync(new URL(url, import.meta.url), 'utf8'))
const golden = read('../../golden/dql.json') as Case[]
const twenty = read('../../fixtures/dql-twenty.json') as string[]
const missing = clickhouseMissing()
let server: ClickHouseServer | undefined

if (missing) console.log(`# skipped: ${missing}`)
else {
  const { ask } = datasetContext(async () => {
    server = await startClickHouse()
    return { ENV_WORKSPACE_ENGINE: 'clickhouse', ENV_WORKSPACE_CLICKHOUSE_URL: server.url }
  })
  after(() => server?.stop())
  const duck = datasetContext()

  for (const [i, c] of golden.entries())
    test(`golden ${i} on clickhouse: ${c.query}`, async () => {
      const r = await ask(c.query, c.options)
      const got = { series: r.series, ...(r.search_after ? { search_after: r.search_after } : {}) }
      assert.deepEqual(got, c.result)
    })

  for (const [query, expected] of functionCases)
    test(`function on clickhouse: ${query}`, async () => {
      const got = (await ask(query)).series.map((s) => ({
        tags: s.tags,
        columns: s.columns,
        values: s.values,
      }))
      assert.deepEqual(JSON.parse(JSON.stringify(got)), JSON.parse(JSON.stringify(expected)))
    })

  for (const q of twenty)
    test(`answers with data on clickhouse: ${q}`, async () => {
      const r = await ask(q)
      assert.ok(r.series.length > 0, 'no series')
      for (const s of r.series) assert.ok(s.values.length > 0, `empty series ${JSON.stringify(s)}`)
    })

  const SAME = [
    'M::cpu:(usage_idle) BY host LIMIT 2 OFFSET 1',
    'M::cpu:(usage_idle) BY host LIMIT 3 OFFSET 2 SLIMIT 2 SOFFSET 1',
    'M::cpu:(avg(usage_idle)) [1h::10m:max] BY region',
    'M::cpu:(max(usage_idle)) [30m::10m:p90] BY host',
    "M::cpu:(usage_idle % 7, ln(usage_user), log(usage_idle, 2), sqrt(usage_user - 3)) {host='h2'} [10m]",
    "L::nginx:(message) {message = match('GET /A') OR message = re('^slow')}",
    'L::*:(status, message) [1h] ORDER BY time ASC',
  ]
  for (const q of SAME)
    test(`as on duckdb: ${q}`, async () => {
      const want = (await duck.ask(q)).series
      assert.ok(want.length > 0, 'no series on duckdb')
      assert.deepEqual((await ask(q)).series, want)
    })

  test('deep paging with search_after reads every row once, as on duckdb', async () => {
    const pages = async (asker: typeof ask) => {
      const rows: unknown[][] = []
      let after: unknown[] = []
      for (let i = 0; i < 50; i++) {
        const r = await asker("M::cpu:(usage_idle) {host='h1'}", { limit: 7, search_after: after })
        const values = r.series[0]?.values ?? []
        if (!values.length) break
        rows.push(...values)
        after = r.search_after!
      }
      return rows
    }
    const [got, want] = [await pages(ask), await pages(duck.ask)]
    assert.ok(want.length > 7)
    assert.deepEqual(got, want)
  })
}
