/** Units of the studio's values: guessed from the column and measurement, and formatted. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { formatNumber, formatValue, unitOf } from '../../../ui/src/units.js'
import { stack, stackBands, tickLabels } from '../../../ui/src/chart-style.js'

test('units from what the host inputs write and from name patterns', () => {
  const cases: [string, string, string, string][] = [
    ['avg(usage_user)', 'cpu', 'M', 'percent'],
    ['used_percent', 'mem', 'M', 'percent'],
    ['max(used)', 'mem', 'M', 'bytes'],
    ['huge_pages_free', 'mem', 'M', 'none'],
    ['last(free)', 'disk', 'M', 'bytes'],
    ['inodes_free', 'disk', 'M', 'none'],
    ['bytes_recv', 'net', 'M', 'bytes'],
    ['bytes_recv/sec', 'net', 'M', 'bytes/s'],
    ['read_time', 'diskio', 'M', 'ms'],
    ['uptime', 'system', 'M', 's'],
    ['avg(duration)', 'web', 'T', 'us'],
    ['duration', 'view', 'R', 'ns'],
    ['count(usage_user)', 'cpu', 'M', 'none'],
    ['avg(v)', 'ui_demo', 'M', 'none'],
    ['request_latency', 'app', 'M', 'ms'],
  ]
  for (const [column, m, ns, want] of cases) assert.equal(unitOf(column, m, ns), want, column)
})

test('values read with their unit', () => {
  const cases: [number, string, number | undefined, string][] = [
    [10.052904317578449, 'none', undefined, '10.05'],
    [10.052904317578449, 'percent', undefined, '10.05%'],
    [10.052904317578449, 'percent', 0, '10%'],
    [512, 'bytes', undefined, '512 B'],
    [1536, 'bytes', undefined, '1.5 KiB'],
    [4 * 1024 ** 3, 'bytes', undefined, '4 GiB'],
    [3.5 * 1024 ** 2, 'bytes/s', 2, '3.50 MiB/s'],
    [850, 'ms', undefined, '850 ms'],
    [1500, 'ms', undefined, '1.5 s'],
    [1200, 'us', undefined, '1.2 ms'],
    [90, 's', undefined, '1.5 min'],
    [0.000123, 'none', undefined, '0.000123'],
  ]
  for (const [n, unit, decimals, want] of cases)
    assert.equal(formatValue(n, unit, decimals), want, `${n} ${unit}`)
  assert.equal(formatNumber(42), '42')
})

test('stacked lines are running sums, banded down to the line below', () => {
  assert.deepEqual(
    stack([
      [1, 2, null],
      [10, null, 30],
      [100, 200, 300],
    ]),
    [
      [1, 2, null],
      [11, null, 30],
      [111, 202, 330],
    ],
  )
  assert.deepEqual(stackBands(3), [{ series: [2, 1] }, { series: [3, 2] }])
})

test('axis ticks get more digits while two would read the same', () => {
  const mib = 1024 ** 2
  assert.deepEqual(tickLabels([1.4 * mib, 1.45 * mib, 1.5 * mib], 'bytes'), [
    '1.40 MiB',
    '1.45 MiB',
    '1.50 MiB',
  ])
  assert.deepEqual(tickLabels([0, 10, 20], 'none'), ['0', '10', '20'])
  assert.deepEqual(tickLabels([1, 2], 'percent', 0), ['1%', '2%'])
})
