/**
 * The twenty everyday queries that used to fail (test/fixtures/dql-twenty.json, also what
 * `npm run bench:dql` times): each answers over the golden dataset with data, never an empty
 * series list, and the catalog answers of show_* are exact.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { test } from 'node:test'
import { datasetWorkspace } from './dql-fixture.js'

const queries = JSON.parse(
  fs.readFileSync(new URL('../../fixtures/dql-twenty.json', import.meta.url), 'utf8'),
) as string[]
const ask = datasetWorkspace()

for (const q of queries)
  test(`answers with data: ${q}`, async () => {
    const r = await ask(q)
    assert.ok(r.series.length > 0, 'no series')
    for (const s of r.series) assert.ok(s.values.length > 0, `empty series ${JSON.stringify(s)}`)
  })

test('show_* answer from the catalog and the data', async () => {
  assert.deepEqual((await ask('show_measurement()')).series, [
    { name: 'measurements', columns: ['name'], values: [['cpu']] },
  ])
  assert.deepEqual((await ask("show_tag_key(from=['cpu'])")).series, [
    { name: 'cpu', columns: ['tagKey'], values: [['host'], ['region']] },
  ])
  assert.deepEqual((await ask("show_field_key(from=['cpu'])")).series, [
    {
      name: 'cpu',
      columns: ['fieldKey', 'fieldType'],
      values: [
        ['usage_idle', 'float'],
        ['usage_user', 'float'],
      ],
    },
  ])
  assert.deepEqual((await ask("show_tag_value(from=['cpu'], keyin=re('reg.*'))")).series, [
    {
      name: 'cpu',
      columns: ['key', 'value'],
      values: [
        ['region', 'east'],
        ['region', 'west'],
      ],
    },
  ])
  assert.deepEqual((await ask('show_logging_source()')).series[0].values, [['nginx']])
  assert.deepEqual((await ask("show_object_field('HOST')")).series[0].values, [
    ['name', 'string'],
    ['os', 'string'],
    ['cpu_cores', 'float'],
  ])
})

const refused: [string, string][] = [
  [
    "median(dql='M::cpu')",
    'queries[0]: DQL parse error at position 0: unknown outer function median(); use one of',
  ],
  [
    'M::cpu:(histogram(usage_idle, 0, 100, 10))',
    'DQL parse error at position 8: unknown function histogram(); use one of',
  ],
  [
    'M::cpu:(avg(usage_idle)) [1h::5m:irate]',
    'DQL parse error at position 33: unknown rollup irate',
  ],
  ['L::other::nginx', 'index "other": this workspace has the default index only'],
  [
    'show_nothing_source()',
    'DQL parse error at position 0: unknown function show_nothing_source()',
  ],
  [
    'M::cpu:(usage_idle) [1h::5m:avg]',
    'DQL parse error at position 28: a rollup needs an aggregate',
  ],
]

for (const [q, message] of refused)
  test(`refused with its position: ${q}`, async () => {
    await assert.rejects(ask(q), (e: Error & { code?: string }) => {
      assert.equal(e.code, 'queryInvalid')
      assert.ok(e.message.includes(message), e.message)
      return true
    })
  })
