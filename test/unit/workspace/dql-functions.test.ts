/** The DQL function cases (dql-functions-cases.ts) on the default engine, DuckDB. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { datasetWorkspace } from './dql-fixture.js'
import { functionCases } from './dql-functions-cases.js'

const run = datasetWorkspace()

async function ask(query: string) {
  const r = await run(query)
  return r.series.map((s) => ({ tags: s.tags, columns: s.columns, values: s.values }))
}

for (const [query, expected] of functionCases)
  test(query, async () => {
    const got = await ask(query)
    assert.deepEqual(JSON.parse(JSON.stringify(got)), JSON.parse(JSON.stringify(expected)))
  })
