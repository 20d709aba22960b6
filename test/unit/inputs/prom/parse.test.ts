/** The exposition parser: a fixed text to exact families, errors, bounds, and a property. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { parseExposition } from '../../../../src/inputs/prom/parse.js'

const TEXT = [
  '# HELP http_requests_total Requests \\\\ served.\\nSecond line.',
  '# TYPE http_requests_total counter',
  'http_requests_total{method="post",code="200"} 1027 1395066363000',
  'http_requests_total{method="get",path="C:\\\\dir \\"x\\"\\nz",} 3',
  '# a free comment',
  'go_gc_pause NaN',
  'temp_celsius{room="a"} -Inf',
  'up +Inf',
  '# TYPE rpc_seconds histogram',
  'rpc_seconds_bucket{le="0.05"} 24054',
  'rpc_seconds_bucket{le="+Inf"} 144320',
  'rpc_seconds_sum 53423',
  'rpc_seconds_count 144320',
  '# TYPE lat summary',
  'lat{quantile="0.5"} 4.5e-3',
  'lat_sum 1.5',
  'lat_count 2',
  '',
].join('\n')

test('a fixed exposition parses to exact families', () => {
  const p = parseExposition(TEXT)
  assert.equal(p.cut, 0)
  assert.deepEqual(p.families, [
    {
      name: 'http_requests_total',
      type: 'counter',
      help: 'Requests \\ served.\nSecond line.',
      samples: [
        {
          name: 'http_requests_total',
          labels: [
            ['method', 'post'],
            ['code', '200'],
          ],
          value: 1027,
          timestampMs: 1395066363000,
        },
        {
          name: 'http_requests_total',
          labels: [
            ['method', 'get'],
            ['path', 'C:\\dir "x"\nz'],
          ],
          value: 3,
        },
      ],
    },
    {
      name: 'go_gc_pause',
      type: 'untyped',
      help: '',
      samples: [{ name: 'go_gc_pause', labels: [], value: NaN }],
    },
    {
      name: 'temp_celsius',
      type: 'untyped',
      help: '',
      samples: [{ name: 'temp_celsius', labels: [['room', 'a']], value: -Infinity }],
    },
    {
      name: 'up',
      type: 'untyped',
      help: '',
      samples: [{ name: 'up', labels: [], value: Infinity }],
    },
    {
      name: 'rpc_seconds',
      type: 'histogram',
      help: '',
      samples: [
        { name: 'rpc_seconds_bucket', labels: [['le', '0.05']], value: 24054 },
        { name: 'rpc_seconds_bucket', labels: [['le', '+Inf']], value: 144320 },
        { name: 'rpc_seconds_sum', labels: [], value: 53423 },
        { name: 'rpc_seconds_count', labels: [], value: 144320 },
      ],
    },
    {
      name: 'lat',
      type: 'summary',
      help: '',
      samples: [
        { name: 'lat', labels: [['quantile', '0.5']], value: 0.0045 },
        { name: 'lat_sum', labels: [], value: 1.5 },
        { name: 'lat_count', labels: [], value: 2 },
      ],
    },
  ])
})

test('OpenMetrics: counters end in _total, timestamps are seconds, exemplars and EOF', () => {
  const om = [
    '# TYPE jobs counter',
    'jobs_total{q="a"} 5 1700000000.5 # {trace_id="x"} 1 1700000000',
    'jobs_created{q="a"} 1700000000',
    '# EOF',
    'ignored 1',
  ].join('\n')
  assert.deepEqual(parseExposition(om, { openMetrics: true }).families, [
    {
      name: 'jobs',
      type: 'counter',
      help: '',
      samples: [
        { name: 'jobs_total', labels: [['q', 'a']], value: 5, timestampMs: 1700000000500 },
        { name: 'jobs_created', labels: [['q', 'a']], value: 1700000000 },
      ],
    },
  ])
})

test('invalid lines are invalidExposition errors naming the line', () => {
  const cases: [string, string][] = [
    ['a{b="c', 'line 1: unterminated label value'],
    ['a{b="c"', 'line 1: expected , or } after a label'],
    ['a{b=c} 1', 'line 1: expected ="..." after b'],
    ['ok 1\na 0x10', 'line 2: invalid value "0x10"'],
    ['a 1 soon', 'line 1: invalid timestamp "soon"'],
    ['a', 'line 1: expected a value'],
    ['# TYPE a weird', 'line 1: unknown type "weird"'],
    ['9a 1', 'line 1: expected a metric name'],
  ]
  for (const [text, message] of cases)
    assert.throws(() => parseExposition(text), { code: 'invalidExposition', message })
})

test('series past maxSeries are cut and counted', () => {
  const text = Array.from({ length: 10 }, (_, i) => `m{i="${i}"} ${i}`).join('\n')
  const p = parseExposition(text, { maxSeries: 4 })
  assert.equal(p.cut, 6)
  assert.deepEqual(
    p.families[0]!.samples.map((s) => s.value),
    [0, 1, 2, 3],
  )
})

const name = fc.stringMatching(/^[a-zA-Z_:][a-zA-Z0-9_:]{0,12}$/)
const labelName = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,8}$/)
const escape = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')

test('random valid expositions parse and round-trip names, labels and values', () => {
  const series = fc.record({
    name,
    labels: fc.uniqueArray(fc.tuple(labelName, fc.string({ maxLength: 10 })), {
      selector: (l) => l[0],
      maxLength: 4,
    }),
    value: fc.double({ noNaN: true }),
  })
  fc.assert(
    fc.property(fc.uniqueArray(series, { selector: (s) => s.name, maxLength: 20 }), (all) => {
      const text = all
        .map((s) => {
          const l = s.labels.map(([k, v]) => `${k}="${escape(v)}"`).join(',')
          const v = Object.is(s.value, -0) ? '-0' : String(s.value).replace('Infinity', 'Inf')
          return `${s.name}{${l}} ${v}`
        })
        .join('\n')
      const got = parseExposition(text).families.flatMap((f) => f.samples)
      assert.deepEqual(
        got.map((s) => [s.name, s.labels, s.value]),
        all.map((s) => [s.name, s.labels, s.value]),
      )
    }),
    { numRuns: 300 },
  )
})
