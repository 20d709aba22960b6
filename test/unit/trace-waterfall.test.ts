/**
 * The studio's waterfall order (ui/src/spans.ts): parents before children, siblings by start,
 * depth by nesting; spans whose parent is missing, or that sit in a parent cycle, are still
 * shown once each at the top level. Durations read in their best unit.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { formatDuration, waterfallOrder } from '../../ui/src/spans.js'

const span = (span_id: string, parent_id: string, start: number) => ({ span_id, parent_id, start })

const order = (spans: ReturnType<typeof span>[]) =>
  waterfallOrder(spans).map((p) => `${String(p.span.span_id)}:${p.depth}`)

test('parents come before their children, siblings by start, each at its depth', () => {
  const spans = [
    span('c2', 'b2', 75),
    span('b2', 'a', 70),
    span('a', '0', 0),
    span('c1', 'b1', 10),
    span('b1', 'a', 5),
  ]
  assert.deepEqual(order(spans), ['a:0', 'b1:1', 'c1:2', 'b2:1', 'c2:2'])
})

test('a span whose parent is not stored is drawn at the top level', () => {
  const spans = [span('x', 'gone', 20), span('a', '0', 0), span('y', 'x', 30)]
  assert.deepEqual(order(spans), ['a:0', 'x:0', 'y:1'])
})

test('spans in a parent cycle, or their own parent, are shown once each', () => {
  const spans = [span('p', 'q', 0), span('q', 'p', 1), span('s', 's', 2)]
  assert.deepEqual(order(spans), ['s:0', 'p:0', 'q:0'])
})

test('a deep chain needs no recursion', () => {
  const spans = Array.from({ length: 20_000 }, (_, i) => span(`s${i}`, i ? `s${i - 1}` : '0', i))
  const placed = waterfallOrder(spans)
  assert.equal(placed.length, 20_000)
  assert.equal(placed.at(-1)!.depth, 19_999)
})

test('durations in microseconds read in µs, ms or s', () => {
  assert.deepEqual([999, 1500, 2_500_000].map(formatDuration), ['999 µs', '1.50 ms', '2.50 s'])
})
