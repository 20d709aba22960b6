/** Explore's time range: relative or absolute, through the URL and back, and its span. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  localInput,
  parseLocalInput,
  rangeFromParams,
  rangeParams,
  resolveRange,
  spanOf,
  zoomOut,
} from '../../../ui/src/range.js'
import { interval } from '../../../ui/src/time.js'
import { withInterval } from '../../../ui/src/dql-text.js'

const params = (s: string) => new URLSearchParams(s)

test('a URL names a relative range, absolute ends, or falls back', () => {
  assert.deepEqual(rangeFromParams(params('range=6h')), { last: '6h' })
  assert.deepEqual(rangeFromParams(params('range=30m')), { last: '30m' })
  assert.deepEqual(rangeFromParams(params('from=1000&to=5000&range=6h')), { from: 1000, to: 5000 })
  // Ends that are not numbers, or reversed, are ignored; so is a range that is not one.
  assert.deepEqual(rangeFromParams(params('from=x&to=5000')), { last: '1h' })
  assert.deepEqual(rangeFromParams(params('from=5000&to=1000')), { last: '1h' })
  assert.deepEqual(rangeFromParams(params('range=1y'), '15m'), { last: '15m' })
})

test('a range goes to the URL and comes back the same', () => {
  for (const r of [{ last: '24h' }, { from: 1_764_000_000_000, to: 1_764_000_600_000 }]) {
    const back = rangeFromParams(new URLSearchParams(rangeParams(r)))
    assert.deepEqual(back, r)
  }
})

test('ends and spans: relative ranges follow the clock, absolute ones do not', () => {
  assert.deepEqual(resolveRange({ last: '15m' }, 1_000_000), [100_000, 1_000_000])
  assert.deepEqual(resolveRange({ from: 5, to: 9 }, 1_000_000), [5, 9])
  assert.equal(spanOf({ last: '1h' }), 3_600_000)
  assert.equal(spanOf({ from: 0, to: 600_000 }), 600_000)
})

test('zoom out doubles the span around its middle, never past now', () => {
  assert.deepEqual(zoomOut({ from: 1000, to: 2000 }, 10_000), { from: 500, to: 2500 })
  assert.deepEqual(zoomOut({ last: '1h' }, 7_200_000), { from: 0, to: 7_200_000 })
})

test('datetime-local values are local times to the second, both ways', () => {
  const ms = new Date(2026, 10, 26, 14, 5, 9).getTime()
  assert.equal(localInput(ms), '2026-11-26T14:05:09')
  assert.equal(parseLocalInput('2026-11-26T14:05:09'), ms)
  assert.equal(parseLocalInput('2026-11-26T14:05'), ms - 9000)
  assert.equal(parseLocalInput(''), null)
  assert.equal(parseLocalInput('yesterday'), null)
})

test('an absolute span gets its own automatic interval', () => {
  assert.equal(interval(600_000), '2s')
  assert.equal(interval(3_600_000), '12s')
  assert.equal(interval(3_600_000, 60), '1m')
  assert.equal(
    withInterval('M::m:(avg(v)) [1h] BY host', 600_000),
    'M::m:(avg(v)) [1h::2s] BY host',
  )
})
