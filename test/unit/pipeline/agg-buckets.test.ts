/**
 * The agent's aggregation buckets on their own: agg_max_buckets and agg_max_series refuse and
 * count, on_count and on_interval flush, keep_value keeps values across flushes, shutdown
 * flushes once.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { AggAdd, AggCreate } from '../../../src/pipeline/agg/ops.js'
import { recordingBuckets } from '../../helpers/agg-buckets.js'

const create = (bucket: string): AggCreate => ({
  op: 'create',
  category: 'metric',
  bucket,
  intervalMs: 60_000,
  count: 0,
  keep: false,
  tags: {},
})

const add = (bucket: string, host: string, value: number): AggAdd => ({
  op: 'add',
  category: 'metric',
  bucket,
  field: 'f',
  fn: 'sum',
  by: ['host'],
  values: [host],
  value,
})

test('agg buckets: agg_max_buckets and agg_max_series refuse and count, existing series still add', async () => {
  const [agg, rec] = recordingBuckets(1, 2)
  agg.apply([create('a'), create('b'), add('b', 'x', 1), add('nobody', 'x', 1)])
  agg.apply([add('a', 'h1', 1), add('a', 'h2', 2), add('a', 'h3', 3), add('a', 'h1', 10)])
  assert.deepEqual(agg.stats(), { buckets: 1, series: 2 })
  await agg.shutdown()
  assert.deepEqual(rec.refused, [
    ['buckets', 0],
    ['buckets', 1],
    ['series', 1],
  ])
  assert.deepEqual(
    rec.emitted.map((p) => [p.tags.host, p.fields.f]),
    [
      ['h1', 11],
      ['h2', 2],
    ],
  )
})

test('agg buckets: on_count flushes, keep_value keeps the values growing across flushes', async () => {
  const [agg, rec] = recordingBuckets()
  const counted = (bucket: string, keep: boolean) => ({
    ...create(bucket),
    intervalMs: 0,
    count: 2,
    keep,
  })
  agg.apply([counted('k', true), counted('r', false)])
  for (const v of [1, 2, 3, 4]) agg.apply([add('k', 'h', v), add('r', 'h', v)])
  const by = (name: string) => rec.emitted.filter((p) => p.name === name).map((p) => p.fields.f)
  assert.deepEqual(by('k'), [3, 10])
  assert.deepEqual(by('r'), [3, 7])
  await agg.shutdown()
  assert.deepEqual(by('k'), [3, 10, 10])
  assert.deepEqual(by('r'), [3, 7])
  agg.apply([add('r', 'h', 1)])
  await agg.shutdown()
})

test('agg buckets: a bucket flushes on its interval', async () => {
  const [agg, rec] = recordingBuckets(10, 10, 20)
  agg.apply([
    { ...create('i'), intervalMs: 1 },
    { ...add('i', 'v', -5), fn: 'max' },
  ])
  const until = Date.now() + 30_000
  while (rec.emitted.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20))
  await agg.shutdown()
  assert.deepEqual(rec.emitted, [
    { category: 'metric', name: 'i', tags: { host: 'v' }, fields: { f: -5 } },
  ])
})
