/** The logs histogram's query: the list's filters, counted per status in about 60 buckets. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { bucketMs, histogramQuery } from '../../../ui/src/dql-text.js'
import { logQuery } from '../../../ui/src/dql-text.js'

const HOUR: [number, number] = [0, 3600_000]

test('about 60 buckets over the range, at least a second', () => {
  assert.equal(bucketMs(HOUR), 60_000)
  assert.equal(bucketMs([0, 10_000]), 1000)
})

test('the filters of the list, counted by status', () => {
  const q = logQuery('nginx', { status: 'error', service: '', text: 'GET' })
  assert.equal(
    histogramQuery(q, HOUR),
    "L::nginx:(count(*)) {status = 'error', message = match('GET')} [::60s] BY status",
  )
  assert.equal(
    histogramQuery(logQuery('my-app', { status: '', service: '', text: '' }), HOUR),
    'L::`my-app`:(count(*)) [::60s] BY status',
  )
})
