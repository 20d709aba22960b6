/**
 * The logs field list's DQL and the stacked bars' bucketing: a field's top values are counted
 * with the list's own filters (picked `field = value`s included), and every count of an answer
 * lands in the bucket its time falls in, so the bars add up to the histogram's total.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { logQuery, topValuesQuery } from '../../../ui/src/dql-text.js'
import { layBuckets } from '../../../ui/src/buckets.js'

test('picked field filters join the list query, names quoted where DQL needs it', () => {
  const q = logQuery('nginx', {
    status: 'error',
    service: '',
    text: 'GET',
    fields: [
      ['region', 'eu'],
      ['http.method', "it's"],
    ],
  })
  assert.equal(
    q,
    "L::nginx {status = 'error', region = 'eu', `http.method` = 'it\\'s', message = match('GET')}",
  )
})

test('a field top values: the list filters, count(*) BY the field, the largest first', () => {
  const q = logQuery('my-app', { status: '', service: 'web', text: '' })
  assert.equal(
    topValuesQuery(q, 'region', 5),
    "L::`my-app`:(count(*)) {service = 'web'} BY region SORDER BY count(*) DESC SLIMIT 5",
  )
  assert.equal(
    topValuesQuery('L::nginx', 'user agent', 3),
    'L::nginx:(count(*)) BY `user agent` SORDER BY count(*) DESC SLIMIT 3',
  )
})

test('counts land in epoch-aligned buckets by group, and add up to the answer', () => {
  const series = [
    {
      name: 'x',
      columns: ['time', 'count(*)'],
      tags: { status: 'info' },
      values: [
        [60_000, 2],
        [180_000, 3],
      ],
    },
    {
      name: 'x',
      columns: ['time', 'count(*)'],
      tags: { status: 'error' },
      values: [
        [60_000, 1],
        [999_000, 7],
      ],
    },
  ]
  const laid = layBuckets(series, {
    range: [30_000, 270_000],
    bucketMs: 60_000,
    key: 'status',
    colorOf: () => '#000',
  })
  assert.equal(laid.first, 0)
  assert.deepEqual(
    laid.buckets.map((m) => Object.fromEntries(m)),
    [{}, { info: 2, error: 1 }, {}, { info: 3 }, {}],
  )
  // A time past the range (999 s) is left out rather than stretching the bars.
  assert.deepEqual(Object.fromEntries(laid.totals), { info: 5, error: 1 })
})
