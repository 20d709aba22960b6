/** RUM vitals as the page shows them: SDK nanoseconds in ms or s, rated by the web thresholds. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { formatDuration, rateVital, VITALS } from '../../../ui/src/vitals.js'

const vital = (label: string) => VITALS.find((v) => v.label === label)!

test('durations in ms below a second, else seconds to two decimals', () => {
  assert.equal(formatDuration(850e6), '850 ms')
  assert.equal(formatDuration(2_400e6), '2.40 s')
})

test('LCP, FCP, INP and CLS rated good, fair or poor at their thresholds', () => {
  const lcp = vital('LCP')
  assert.deepEqual(rateVital(lcp, 2_500e6), { text: '2.50 s', rating: 'good' })
  assert.deepEqual(rateVital(lcp, 2_501e6), { text: '2.50 s', rating: 'fair' })
  assert.deepEqual(rateVital(lcp, 4_001e6), { text: '4.00 s', rating: 'poor' })
  assert.equal(rateVital(vital('FCP'), 1_900e6).rating, 'fair')
  assert.deepEqual(rateVital(vital('INP'), 200e6), { text: '200 ms', rating: 'good' })
  assert.deepEqual(rateVital(vital('CLS'), 0.3), { text: '0.300', rating: 'poor' })
})
