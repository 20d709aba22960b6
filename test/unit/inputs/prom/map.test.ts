/** The reference's mapping from families to points, with exact outputs. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { goFloat, names, toPoints, type MapOptions } from '../../../../src/inputs/prom/map.js'
import { parseExposition } from '../../../../src/inputs/prom/parse.js'
import type { Point } from '../../../../src/shared/point.js'

const BASE: MapOptions = {
  metricTypes: [],
  metricNameFilter: [],
  metricNameFilterIgnore: [],
  measurementPrefix: '',
  measurementName: '',
  keepExistMetricName: false,
  honorTimestamps: true,
  tagsIgnore: [],
  tagsRename: { mapping: {}, overwrite: false },
  disableInfoTag: false,
  extraTags: [],
}

/** measurement, time, tags as k=v, fields as k=v (kind 2: float). */
const flat = (ps: Point[]) =>
  ps.map((p) => [
    p.name,
    p.time,
    p.tags.map((t) => `${t.key}=${t.value}`).join(','),
    p.fields.map((f) => `${f.key}=${String(f.value)}`).join(','),
  ])

const map = (text: string, o: Partial<MapOptions> = {}) =>
  flat(toPoints(parseExposition(text).families, 7n, { ...BASE, ...o }))

const EXPO = [
  '# TYPE http_requests_total counter',
  'http_requests_total{method="get"} 3 1000',
  '# TYPE go_goroutines gauge',
  'go_goroutines 12',
  'up +Inf',
  '# TYPE rpc_duration_seconds histogram',
  'rpc_duration_seconds_bucket{svc="a",le="0.00001"} 1',
  'rpc_duration_seconds_bucket{svc="a",le="1000000"} 4',
  'rpc_duration_seconds_bucket{svc="a",le="+Inf"} 5',
  'rpc_duration_seconds_sum{svc="a"} 2.5',
  'rpc_duration_seconds_count{svc="a"} 5',
  '# TYPE rpc_latency summary',
  'rpc_latency{quantile="0.99"} 0.25',
  'rpc_latency{quantile="0.5"} NaN',
  'rpc_latency_sum 9',
  'rpc_latency_count 30',
].join('\n')

test('counters, gauges, histograms and summaries map as the reference maps them', () => {
  assert.deepEqual(map(EXPO, { extraTags: [['instance', 'h:9']] }), [
    ['http', 1_000_000_000n, 'instance=h:9,method=get', 'requests_total=3'],
    ['go', 7n, 'instance=h:9', 'goroutines=12'],
    ['rpc', 7n, 'instance=h:9,svc=a', 'duration_seconds_count=5,duration_seconds_sum=2.5'],
    ['rpc', 7n, 'instance=h:9,svc=a,le=1e-05', 'duration_seconds_bucket=1'],
    ['rpc', 7n, 'instance=h:9,svc=a,le=1e+06', 'duration_seconds_bucket=4'],
    ['rpc', 7n, 'instance=h:9,svc=a,le=+Inf', 'duration_seconds_bucket=5'],
    ['rpc', 7n, 'instance=h:9', 'latency_count=30,latency_sum=9'],
    ['rpc', 7n, 'instance=h:9,quantile=0.99', 'latency=0.25'],
  ])
})

test('measurement_name keeps the full name as field; prefix, filters, types, timestamps', () => {
  const o = { measurementName: 'app', measurementPrefix: 'p_', honorTimestamps: false }
  assert.deepEqual(map('http_requests_total 3 1000\ngo_goroutines 12', o), [
    ['p_app', 7n, '', 'http_requests_total=3'],
    ['p_app', 7n, '', 'go_goroutines=12'],
  ])
  assert.deepEqual(map(EXPO, { metricTypes: ['gauge'] }), [['go', 7n, '', 'goroutines=12']])
  assert.deepEqual(
    map(EXPO, { metricNameFilter: [/^go_/, /^http/], metricNameFilterIgnore: [/http/] }),
    [['go', 7n, '', 'goroutines=12']],
  )
})

test('tags_ignore, tags_rename (with and without overwrite) and info labels', () => {
  const text = [
    '# TYPE build info',
    'build_info{version="1.2"} 1',
    'a_b{x="1",y="2",z="3"} 1',
  ].join('\n')
  const o = { tagsIgnore: ['z'], tagsRename: { mapping: { x: 'y' }, overwrite: false } }
  assert.deepEqual(map(text, o), [['a', 7n, 'version=1.2,x=1,y=2', 'b=1']])
  assert.deepEqual(map(text, { ...o, tagsRename: { mapping: { x: 'y' }, overwrite: true } }), [
    ['a', 7n, 'version=1.2,y=1', 'b=1'],
  ])
  assert.deepEqual(map(text, { disableInfoTag: true }), [['a', 7n, 'x=1,y=2,z=3', 'b=1']])
})

test('names split at the first underscore, like the reference', () => {
  const cases: [string, [string, string]][] = [
    ['http_requests_total', ['http', 'requests_total']],
    ['__x_y', ['x', 'y']],
    ['single', ['single', 'single']],
    ['trail_', ['trail', 'trail']],
    ['_', ['unknown', 'unknown']],
    ['_a', ['unknown', 'unknown']],
  ]
  for (const [n, want] of cases) assert.deepEqual(names(n, BASE), want, n)
  assert.deepEqual(names('a_b_c', { ...BASE, keepExistMetricName: true }), ['a', 'a_b_c'])
})

test('le and quantile values print as Go prints a float64', () => {
  const cases: [number, string][] = [
    [0.005, '0.005'],
    [1, '1'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [100000, '100000'],
    [123456789, '1.23456789e+08'],
    [1.5e100, '1.5e+100'],
    [Infinity, '+Inf'],
  ]
  for (const [v, s] of cases) assert.equal(goFloat(v), s)
})
