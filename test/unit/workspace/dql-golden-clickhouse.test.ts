/**
 * The DQL golden cases (test/golden/dql.json) on a workspace over a real ClickHouse: the SQL
 * differs from DuckDB's, the answers (series, tags, columns, values, search_after) must not.
 * Skips, saying why, where clickhouse-server is not installed.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, test } from 'node:test'
import { runQueries } from '../../../src/workspace/dql/execute.js'
import {
  clickhouseMissing,
  startClickHouse,
  type ClickHouseServer,
} from '../../helpers/clickhouse.js'
import { datasetContext } from './dql-fixture.js'

interface Case {
  query: string
  options?: Record<string, unknown>
  result: unknown
}

const cases = JSON.parse(
  fs.readFileSync(new URL('../../golden/dql.json', import.meta.url), 'utf8'),
) as Case[]
const missing = clickhouseMissing()
let server: ClickHouseServer | undefined

if (missing) console.log(`# skipped: ${missing}`)
else {
  const { context } = datasetContext(async () => {
    server = await startClickHouse()
    return { ENV_WORKSPACE_ENGINE: 'clickhouse', ENV_WORKSPACE_CLICKHOUSE_URL: server.url }
  })
  after(() => server?.stop())

  for (const [i, c] of cases.entries()) {
    test(`dql golden on clickhouse ${i}: ${c.query}`, async () => {
      const [r] = await runQueries(await context(), {
        queries: [{ query: c.query, ...c.options }],
      })
      const got = { series: r.series, ...(r.search_after ? { search_after: r.search_after } : {}) }
      assert.deepEqual(got, c.result)
    })
  }
}
