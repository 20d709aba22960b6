/** Series functions and outer reducers on hand-made series: gaps, resets, windows, nulls. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { applySeriesFunc } from '../../../src/workspace/dql/transform.js'
import { reduceRows } from '../../../src/workspace/dql/outer-reduce.js'
import { rowMatches } from '../../../src/workspace/dql/post-filter.js'

const T = [0, 10_000, 20_000, 30_000, 40_000]

test('derivative skips nulls: the previous value is the last number before the row', () => {
  // 10 -> (null) -> 30 over 20 s: 1 per second; 30 -> 20 over 10 s: -1.
  assert.deepEqual(applySeriesFunc('derivative', T, [10, null, 30, 20, 'x']), [
    undefined,
    undefined,
    1,
    -1,
    undefined,
  ])
})

test('counter functions drop the negative change of a reset', () => {
  assert.deepEqual(applySeriesFunc('non_negative_difference', T, [1, 5, 2, 4, 4]), [
    undefined,
    4,
    undefined,
    2,
    0,
  ])
  assert.deepEqual(applySeriesFunc('rate', T, [0, 100, 0, 50, 50]), [
    undefined,
    10,
    undefined,
    5,
    0,
  ])
})

test('moving_average, cumsum and pointwise functions', () => {
  assert.deepEqual(applySeriesFunc('moving_average', T, [1, 2, 3, null, 7], 3), [
    undefined,
    undefined,
    2,
    undefined,
    4,
  ])
  assert.deepEqual(applySeriesFunc('cumsum', T, [1, 2, null, '3', 4]), [1, 3, undefined, 6, 10])
  assert.deepEqual(applySeriesFunc('log10', T, [100, 0, -1, null, 1]), [2, null, null, null, 0])
})

test('reducers: one row per series, time 0 unless first or last', () => {
  const rows = [
    [1, 4, 'a'],
    [2, null, 'b'],
    [3, 2, 'a'],
  ]
  assert.deepEqual(reduceRows('avg', rows), [[0, 3, null]])
  assert.deepEqual(reduceRows('count', rows), [[0, 2, 3]])
  assert.deepEqual(reduceRows('count_distinct', rows), [[0, 2, 2]])
  assert.deepEqual(reduceRows('last', rows), [[3, 2, 'a']])
  assert.deepEqual(reduceRows('first', rows), [[1, 4, 'a']])
  assert.deepEqual(reduceRows('max', []), [])
})

test('HAVING on rows: numbers numerically, null only equals null, patterns never match null', () => {
  const row: Record<string, unknown> = { a: 5, s: 'web-1', n: null }
  const get = (k: string) => row[k]
  assert.equal(rowMatches({ op: 'cmp', column: 'a', cmp: '>', value: 4.5 }, get), true)
  assert.equal(rowMatches({ op: 'cmp', column: 'n', cmp: '=', value: null }, get), true)
  assert.equal(rowMatches({ op: 'cmp', column: 'n', cmp: '<', value: 1 }, get), false)
  assert.equal(
    rowMatches({ op: 're', column: 'n', pattern: '.*', negate: false }, get) ||
      rowMatches({ op: 'match', column: 's', pattern: 'WEB', negate: true }, get),
    false,
  )
  assert.equal(
    rowMatches({ op: 'in', column: 's', values: ['x', 'web-1'], negate: false }, get),
    true,
  )
})
