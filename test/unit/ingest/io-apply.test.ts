/**
 * `[io]` in the worker: filters drop matching points, correction re-times points more than 2h
 * from now keeping `__orig_time`, and a task without `io` costs nothing (process.ts skips it).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { applyIo } from '../../../src/ingest/io-apply.js'
import { ioSettings } from '../../../src/ingest/io.js'
import { Kind, newPoint } from '../../../src/shared/point.js'

const NOW = 1_700_000_000_000_000_000n
const H = 3600n * 1_000_000_000n

function at(time: bigint, status = 'info') {
  const p = newPoint('nginx')
  p.tags.push({ key: 'status', value: status })
  p.time = time
  return p
}

test('filters run first, then correction re-times only points beyond 2h', () => {
  const points = [
    at(NOW - 3n * H, 'debug'),
    at(NOW - 3n * H),
    at(NOW + 2n * H),
    at(NOW + 2n * H + 1n),
  ]
  const out = applyIo(
    points,
    'logging',
    { correctTimes: true, filters: ["{ status = 'debug' }"] },
    NOW,
  )
  assert.equal(out.filtered, 1)
  assert.equal(out.retimed, 2)
  assert.deepEqual(
    out.points.map((p) => [p.time, p.fields]),
    [
      [NOW, [{ key: '__orig_time', kind: Kind.INT, value: NOW - 3n * H }]],
      [NOW + 2n * H, []],
      [NOW, [{ key: '__orig_time', kind: Kind.INT, value: NOW + 2n * H + 1n }]],
    ],
  )
})

test('a point that has __orig_time already keeps it', () => {
  const p = at(0n)
  p.fields.push({ key: '__orig_time', kind: Kind.INT, value: 5 })
  const out = applyIo([p], 'logging', { correctTimes: true, filters: [] }, NOW)
  assert.deepEqual(out.points[0].fields, [{ key: '__orig_time', kind: Kind.INT, value: 5 }])
  assert.equal(out.points[0].time, NOW)
})

test('settings give no task for a category with neither filters nor correction', () => {
  const events = { pointsFiltered: () => {}, pointsRetimed: () => {} }
  const s = ioSettings(
    { autoTimestampCorrection: false, filters: { logging: ['{ a = 1 }'] } },
    () => 7,
    events,
  )
  assert.equal(s.task('metric'), undefined)
  assert.deepEqual(s.task('logging'), { correctTimes: false, filters: ['{ a = 1 }'] })
  assert.equal(s.clockOffsetMs(), 7)
  const all = ioSettings({ autoTimestampCorrection: true, filters: {} }, () => 0, events)
  assert.deepEqual(all.task('metric'), { correctTimes: true, filters: [] })
})
