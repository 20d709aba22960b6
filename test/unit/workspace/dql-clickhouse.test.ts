/**
 * DQL on a workspace over a real ClickHouse (one child process for the file): the golden cases
 * (test/golden/dql.json) answer exactly what they answer on DuckDB (the SQL differs, the series,
 * tags, columns, values and search_after must not), so do the function cases
 * (dql-functions-cases.ts), and the twenty everyday queries answer with data. Skips, saying
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
}
