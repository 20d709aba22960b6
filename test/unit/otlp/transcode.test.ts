/**
 * The trace transcoder against the general mapping: for the fixture, the benchmark's export
 * and random exports (fast-check), `processTask` with and without the transcoder gives the same
 * answer and the same upload bytes; the share that took the general path is printed, and the
 * exports built to be transcodable must be transcoded; each path's spans are counted.
 * FUZZ_RUNS sets the number of runs.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import fc from 'fast-check'
import { processTask } from '../../../src/ingest/process.js'
import { plainTask, type DecodeResult } from '../../../src/ingest/protocol.js'
import { DEFAULT_OTLP_OPTIONS, type OtlpOptions } from '../../../src/decode/otlp/options.js'
import { otlpToProto } from '../../../bench/lib/otlp-proto.js'
import { testApp } from '../../helpers/app.js'

const RUNS = Number(process.env.FUZZ_RUNS ?? 1_000)
const FIXTURE = new URL('../../fixtures/otlp/traces.json', import.meta.url)
const NOW = 1_700_000_000_123_456_789n

function task(req: unknown, o: Partial<OtlpOptions> = {}, extraTags: [string, string][] = []) {
  return plainTask(otlpToProto('TracesRequest', req), 'tracing', {
    contentType: 'application/x-protobuf',
    precision: 'n',
    now: NOW,
    extraTags,
    otlp: {
      signal: 'traces',
      options: { ...DEFAULT_OTLP_OPTIONS, remoteIp: '10.0.0.7', fingerprint: 'h_1', ...o },
    },
  })
}

/** Both paths' answers, with the path counts set aside; true when the transcoder took it. */
async function both(req: unknown, o?: Partial<OtlpOptions>, extra?: [string, string][]) {
  const strip = (r: DecodeResult) => {
    if (!r.ok || !r.otlp) return { r, fast: false }
    const { transcodedSpans, generalSpans, ...rest } = r.otlp
    void generalSpans
    return { r: { ...r, otlp: rest }, fast: transcodedSpans > 0 }
  }
  const fast = strip(await processTask(task(req, o, extra)))
  const general = strip(await processTask(task(req, o, extra), null, null, false))
  assert.deepEqual(fast.r, general.r)
  assert.equal(general.fast, false)
  return fast.fast
}

const hex = (n: number) =>
  fc.uint8Array({ minLength: n, maxLength: n }).map((b) => Buffer.from(b).toString('hex'))
/** Mostly what the transcoder takes, now and then what it must leave to the general path. */
const rare = <T>(common: fc.Arbitrary<T>, ...others: fc.Arbitrary<unknown>[]): fc.Arbitrary<T> =>
  fc.oneof(
    { weight: 60, arbitrary: common },
    ...others.map((arbitrary) => ({ weight: 1, arbitrary: arbitrary as fc.Arbitrary<T> })),
  )
const text = rare(
  fc.constantFrom('GET', '/api/item/:id', 'postgresql', 'db-1', '', 'a b', 'x.y'),
  fc.constant('q"\\'),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
)
const value = rare(
  fc.oneof(
    { weight: 4, arbitrary: text.map((s) => ({ stringValue: s })) },
    fc.integer({ min: 0, max: 2 ** 31 }).map((i) => ({ intValue: String(i) })),
    fc.double({ noDefaultInfinity: true, noNaN: true }).map((d) => ({ doubleValue: d })),
    fc.boolean().map((b) => ({ boolValue: b })),
    fc.constant(undefined),
    fc
      .array(fc.oneof(fc.constantFrom('node', '/srv/app.js'), fc.integer({ min: 0, max: 9 })), {
        maxLength: 3,
      })
      .map((xs) => ({
        arrayValue: {
          values: xs.map((x) =>
            typeof x === 'string' ? { stringValue: x } : { intValue: String(x) },
          ),
        },
      })),
  ),
  fc.integer({ min: -5, max: -1 }).map((i) => ({ intValue: String(i) })),
  fc.double().map((d) => ({ doubleValue: d })),
  fc.constant({ arrayValue: { values: [{ arrayValue: {} }] } }),
  fc.constant({ kvlistValue: { values: [{ key: 'a' }] } }),
)
const KEYS = [
  'http.method',
  'http.request.method',
  'http.status_code',
  'http.response.status_code',
  'db.system',
  'net.peer.name',
  'server.address',
  'rpc.system',
  'messaging.system',
  'error.type',
  'service.name',
  'host',
  'user.id',
]
const key = rare(
  fc.constantFrom(...KEYS),
  fc.constantFrom('runtime_id', 'messaging.message.id', 'a"b'),
  fc.string({ maxLength: 6 }),
)
const attrs = fc.array(fc.record({ key, value }, { requiredKeys: ['key'] }), { maxLength: 4 })
const nanos = rare(
  fc.bigInt({ min: NOW - 10n ** 12n, max: NOW + 10n ** 12n }),
  fc.constant(0n),
  fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
)
const span = (ids: string[]) =>
  fc.record(
    {
      traceId: hex(16),
      spanId: fc.constantFrom(...ids),
      parentSpanId: fc.constantFrom('', ...ids),
      traceState: rare(fc.constantFrom('', 'k=v'), fc.constant('a"b')),
      name: text,
      kind: fc.integer({ min: 0, max: 7 }),
      startTimeUnixNano: nanos.map(String),
      endTimeUnixNano: nanos.map(String),
      attributes: attrs,
      droppedAttributesCount: fc.nat(3),
      droppedEventsCount: fc.nat(2),
      droppedLinksCount: fc.nat(2),
      status: fc.record({ code: fc.integer({ min: 0, max: 3 }) }),
      events: rare(fc.constant([]), fc.constant([{ timeUnixNano: '1', name: 'exception' }])),
    },
    {
      requiredKeys: ['traceId', 'spanId', 'name', 'startTimeUnixNano', 'endTimeUnixNano', 'events'],
    },
  )
const request = fc
  .array(hex(8), { minLength: 1, maxLength: 4 })
  .chain((ids) =>
    fc.array(
      fc.record({
        resource: fc.record({ attributes: attrs }),
        scopeSpans: fc.array(
          fc.record({
            scope: fc.record({ name: fc.constant('s'), attributes: attrs }),
            spans: fc.array(span(ids), { maxLength: 3 }),
          }),
          { maxLength: 2 },
        ),
      }),
      { minLength: 1, maxLength: 2 },
    ),
  )
  .map((resourceSpans) => ({ resourceSpans }))
const options = fc.record({
  message: fc.boolean(),
  maxAttributes: rare(fc.constant(128), fc.constant(2)),
  customerTagsAll: fc.boolean().map((b) => b && Math.random() < 0.1),
})
const globals = fc.constantFrom<[string, string][]>([], [['host', 'h1']], [['cluster', 'c ü']])

test('random exports: the transcoder gives the general path’s answer and upload bytes', async () => {
  let fast = 0
  let all = 0
  await fc.assert(
    fc.asyncProperty(request, options, globals, async (req, o, extra) => {
      all++
      if (await both(req, o, extra)) fast++
    }),
    { numRuns: RUNS },
  )
  console.log(`transcoded ${fast} of ${all} random exports; ${all - fast} took the general path`)
  assert.ok(fast > all / 20, `only ${fast} of ${all} transcoded`)
})

test('the fixture and the benchmark’s export give the same answers by both paths', async () => {
  const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8'))
  await both(fixture)
  const spans = Array.from({ length: 100 }, (_, i) => ({
    traceId: (1 + Math.floor(i / 10)).toString(16).padStart(32, '0'),
    spanId: (i + 1).toString(16).padStart(16, '0'),
    parentSpanId: i % 10 === 0 ? '' : (i - (i % 10) + 1).toString(16).padStart(16, '0'),
    name: `GET /api/item/${i % 7}`,
    kind: 2,
    startTimeUnixNano: String(NOW + BigInt(i) * 1000n),
    endTimeUnixNano: String(NOW + BigInt(i) * 1000n + 250_000n),
    attributes: [
      { key: 'http.request.method', value: { stringValue: 'GET' } },
      { key: 'http.response.status_code', value: { intValue: '200' } },
      { key: 'user.id', value: { stringValue: `u${i}` } },
    ],
    status: { code: 1 },
  }))
  const resource = { attributes: [{ key: 'service.name', value: { stringValue: 'bench' } }] }
  const req = { resourceSpans: [{ resource, scopeSpans: [{ scope: { name: 'b' }, spans }] }] }
  assert.equal(await both(req, {}, [['host', 'h1']]), true)
  // An SDK's resource: arrays and integers among its attributes, which stay in the message.
  const sdk = [
    { key: 'service.name', value: { stringValue: 'checkout' } },
    { key: 'process.pid', value: { intValue: '4242' } },
    {
      key: 'process.command_args',
      value: { arrayValue: { values: [{ stringValue: 'node' }, { stringValue: 'app.js' }] } },
    },
    { key: 'telemetry.sdk.language', value: { stringValue: 'nodejs' } },
  ]
  const sdkReq = { resourceSpans: [{ ...req.resourceSpans[0], resource: { attributes: sdk } }] }
  assert.equal(await both(sdkReq), true)
  assert.equal(await both(req, { customerTags: ['user.id'] }), false)
  assert.equal(await both(req, { samplingRate: 0.5 }), false)
})

test('the spans each path mapped are counted in ferry_otlp_trace_spans_total', async () => {
  const t = testApp()
  const headers = { 'content-type': 'application/x-protobuf' }
  const span = {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    name: 'GET /',
    startTimeUnixNano: String(NOW),
    endTimeUnixNano: String(NOW + 1000n),
  }
  const plain = { resourceSpans: [{ scopeSpans: [{ spans: [span, { ...span, spanId: '01' }] }] }] }
  const events = [{ timeUnixNano: '1', name: 'exception' }]
  const withEvent = { resourceSpans: [{ scopeSpans: [{ spans: [{ ...span, events }] }] }] }
  for (const req of [plain, withEvent]) {
    const body = otlpToProto('TracesRequest', req)
    const res = await t.app.request('/v1/traces', { method: 'POST', body, headers })
    assert.equal(res.status, 200)
  }
  const text = await t.metrics.registry.getSingleMetricAsString('ferry_otlp_trace_spans_total')
  assert.match(text, /ferry_otlp_trace_spans_total\{path="transcoder"\} 2/)
  assert.match(text, /ferry_otlp_trace_spans_total\{path="general"\} 1/)
})
