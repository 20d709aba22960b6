/** Explore's automatic interval: about 300 buckets over the range unless the query sets one. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { withInterval } from '../../../ui/src/dql-text.js'
import { interval } from '../../../ui/src/time.js'

test('about 300 buckets over each range', () => {
  assert.deepEqual(
    ['15m', '1h', '6h', '24h', '7d'].map((r) => interval(r)),
    ['3s', '12s', '72s', '288s', '2016s'],
  )
})

test('an aggregate without an interval gets one; a set interval or a raw query is kept', () => {
  const cases: [string, string][] = [
    ['M::cpu:(avg(usage_user)) [1h] BY host', 'M::cpu:(avg(usage_user)) [1h::12s] BY host'],
    ['M::cpu:(avg(usage_user)) [1h:] BY host', 'M::cpu:(avg(usage_user)) [1h::12s] BY host'],
    ['M::cpu:(avg(usage_user)) [1h::] BY host', 'M::cpu:(avg(usage_user)) [1h::12s] BY host'],
    ['M::cpu:(avg(x)) [10m:5m]', 'M::cpu:(avg(x)) [10m:5m:12s]'],
    ['M::cpu:(avg(usage_user)) BY host', 'M::cpu:(avg(usage_user)) [::12s] BY host'],
    ['M::cpu:(avg(usage_user)) [1h::1m] BY host', 'M::cpu:(avg(usage_user)) [1h::1m] BY host'],
    ['M::cpu:(usage_user) [1h]', 'M::cpu:(usage_user) [1h]'],
  ]
  for (const [q, want] of cases) assert.equal(withInterval(q, '1h'), want, q)
})
