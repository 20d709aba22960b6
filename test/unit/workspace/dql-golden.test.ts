/**
 * DQL golden tests: query text -> SQL (with its parameters) -> series, over a fixed dataset and
 * a fixed clock. `UPDATE_GOLDEN=1` rewrites test/golden/dql.json; review the diff before
 * committing it.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, test } from 'node:test'
import { planQuery, runQueries } from '../../../src/workspace/dql/execute.js'
import { datasetContext } from './dql-fixture.js'

interface Case {
  query: string
  options?: Record<string, unknown>
  sql?: string
  params?: string[]
  result?: unknown
}

const FILE = new URL('../../golden/dql.json', import.meta.url)
const cases = JSON.parse(fs.readFileSync(FILE, 'utf8')) as Case[]
const update = process.env.UPDATE_GOLDEN === '1'
const { context } = datasetContext()

const normalise = (sql: string) => sql.replace(/"w_[0-9a-f]{32}"/g, '"w_WS"')

for (const [i, c] of cases.entries()) {
  test(`dql golden ${i}: ${c.query}`, async () => {
    const ctx = await context()
    const { plan } = planQuery(ctx, { query: c.query, ...c.options }, 0)
    const [r] = await runQueries(ctx, { queries: [{ query: c.query, ...c.options }] })
    const got = {
      sql: normalise(plan.sql),
      params: plan.params.map(String),
      result: { series: r.series, ...(r.search_after ? { search_after: r.search_after } : {}) },
    }
    if (update) Object.assign(c, got)
    else assert.deepEqual(got, { sql: c.sql, params: c.params, result: c.result })
  })
}

after(() => {
  if (update) fs.writeFileSync(FILE, `${JSON.stringify(cases, null, 2)}\n`)
})
