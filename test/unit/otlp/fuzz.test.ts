/**
 * Fuzzing the OTLP decoders (fast-check): mutated protobuf and JSON requests either decode or
 * fail with the agent's coded errors, never anything else; random trace, metric and log
 * requests decode to the same points from both encodings; hostile bodies through the app get
 * a JSON refusal with a known code. FUZZ_RUNS sets the number of runs per property.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import fc from 'fast-check'
import { FerryError } from '../../../src/errors.js'
import { decodeOtlp } from '../../../src/decode/otlp/decode.js'
import type { OtlpSignal } from '../../../src/decode/otlp/model.js'
import { DEFAULT_OTLP_OPTIONS } from '../../../src/decode/otlp/options.js'
import { testApp } from '../../helpers/app.js'
import { assertHostileBodiesRefused } from '../../helpers/hostile.js'
import { otlpToProto, type OtlpRequest } from '../../../bench/lib/otlp-proto.js'

const RUNS = Number(process.env.FUZZ_RUNS ?? 2_000)
const FIXTURES = new URL('../../fixtures/otlp/', import.meta.url)
const SIGNALS: [OtlpSignal, OtlpRequest][] = [
  ['traces', 'TracesRequest'],
  ['metrics', 'MetricsRequest'],
  ['logs', 'LogsRequest'],
]
const EXPECTED = new Set(['invalidOtlp', 'tooManyPoints'])

function fixture(signal: OtlpSignal): unknown {
  return JSON.parse(readFileSync(new URL(`${signal}.json`, FIXTURES), 'utf8'))
}

function decodeOrRefuse(signal: OtlpSignal, ct: string, body: Uint8Array): void {
  try {
    decodeOtlp(signal, ct, body, { ...DEFAULT_OTLP_OPTIONS, maxEntries: 1000 })
  } catch (e) {
    assert.ok(e instanceof FerryError, `not a FerryError: ${(e as Error)?.stack}`)
    assert.ok(EXPECTED.has(e.code), `${e.code}: ${e.message}`)
  }
}

const mutation = fc.record({
  at: fc.nat(),
  bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }),
  cut: fc.boolean(),
})

for (const [signal, kind] of SIGNALS) {
  test(`${signal}: mutated protobuf and JSON requests decode or get invalidOtlp`, () => {
    const pb = otlpToProto(kind, fixture(signal))
    const json = Buffer.from(JSON.stringify(fixture(signal)))
    fc.assert(
      fc.property(mutation, fc.boolean(), (m, useJson) => {
        const src = useJson ? json : pb
        const at = m.at % src.length
        const body = m.cut
          ? Buffer.concat([src.subarray(0, at), m.bytes])
          : Buffer.concat([src.subarray(0, at), m.bytes, src.subarray(at + m.bytes.length)])
        decodeOrRefuse(signal, useJson ? 'application/json' : 'application/x-protobuf', body)
      }),
      { numRuns: RUNS },
    )
  })
}

const hex = (n: number) =>
  fc.uint8Array({ minLength: n, maxLength: n }).map((b) => Buffer.from(b).toString('hex'))
// JSON has no -0 (it reads back as 0), so the two encodings could not agree on it.
const dbl = fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0))
const value = fc.oneof(
  fc.string().map((s) => ({ stringValue: s })),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((i) => ({ intValue: String(i) })),
  dbl.map((d) => ({ doubleValue: d })),
  fc.boolean().map((b) => ({ boolValue: b })),
)
const attrs = fc.array(fc.record({ key: fc.string({ minLength: 1 }), value }), { maxLength: 4 })
const nanos = fc.bigInt({ min: 1n, max: 2n ** 62n }).map(String)
const span = fc.record({
  traceId: hex(16),
  spanId: hex(8),
  parentSpanId: fc.option(hex(8), { nil: undefined }),
  name: fc.string(),
  kind: fc.integer({ min: 0, max: 5 }),
  startTimeUnixNano: nanos,
  endTimeUnixNano: nanos,
  attributes: attrs,
  status: fc.option(fc.record({ code: fc.integer({ min: 0, max: 2 }) }), { nil: undefined }),
})
const record = fc.record({
  timeUnixNano: nanos,
  severityNumber: fc.integer({ min: 0, max: 24 }),
  body: value,
  attributes: attrs,
  traceId: hex(16),
})
const numberPoint = fc.record({
  timeUnixNano: nanos,
  attributes: attrs,
  asDouble: dbl,
})
const wrap = (resource: string, scope: string, items: string, list: fc.Arbitrary<unknown[]>) =>
  fc.record({ attributes: attrs, list }).map((r) => ({
    [resource]: [
      {
        resource: { attributes: r.attributes },
        [scope]: [{ scope: { name: 's' }, [items]: r.list }],
      },
    ],
  }))
const REQUESTS: [OtlpSignal, OtlpRequest, fc.Arbitrary<unknown>][] = [
  [
    'traces',
    'TracesRequest',
    wrap('resourceSpans', 'scopeSpans', 'spans', fc.array(span, { maxLength: 5 })),
  ],
  [
    'logs',
    'LogsRequest',
    wrap('resourceLogs', 'scopeLogs', 'logRecords', fc.array(record, { maxLength: 5 })),
  ],
  [
    'metrics',
    'MetricsRequest',
    wrap(
      'resourceMetrics',
      'scopeMetrics',
      'metrics',
      fc.array(
        fc.record({
          name: fc.string({ minLength: 1 }),
          gauge: fc.record({ dataPoints: fc.array(numberPoint, { maxLength: 3 }) }),
        }),
        { maxLength: 3 },
      ),
    ),
  ],
]

for (const [signal, kind, arb] of REQUESTS) {
  test(`${signal}: random requests map to the same points from JSON and protobuf`, () => {
    fc.assert(
      fc.property(arb, (req) => {
        const o = { ...DEFAULT_OTLP_OPTIONS, fingerprint: 'h_v' }
        const fromJson = decodeOtlp(signal, 'application/json', Buffer.from(JSON.stringify(req)), o)
        const fromPb = decodeOtlp(signal, 'application/x-protobuf', otlpToProto(kind, req), o)
        assert.deepEqual(fromPb, fromJson)
      }),
      { numRuns: Math.min(RUNS, 500) },
    )
  })
}

test('hostile OTLP bodies through the app get a JSON refusal with a known code', async () => {
  await assertHostileBodiesRefused(testApp().app, {
    paths: ['/v1/traces', '/v1/metrics', '/v1/logs'],
    types: ['application/json', 'application/x-protobuf', 'text/plain'],
    method: 'POST',
    runs: Math.min(RUNS, 500),
  })
})
