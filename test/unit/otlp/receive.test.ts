/**
 * The OTLP/HTTP receivers through app.request(): each fixture request, sent as OTLP/JSON and as
 * protobuf (gzip too), buffers exactly the points of its golden file; the answers, partial
 * success, limits and errors. `UPDATE_GOLDEN=1` rewrites the golden files.
 */
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { test } from 'node:test'
import zlib from 'node:zlib'
import { PbReader } from '../../../src/decode/codec/pb-reader.js'
import { testApp } from '../../helpers/app.js'
import { otlpToProto, type OtlpRequest } from '../../../bench/lib/otlp-proto.js'
import { payloadShapes } from '../../helpers/points.js'

const FIXTURES = new URL('../../fixtures/otlp/', import.meta.url)
const GOLDEN = new URL('../../golden/', import.meta.url)
const update = process.env.UPDATE_GOLDEN === '1'

const CASES: [string, OtlpRequest, string][] = [
  ['traces', 'TracesRequest', '/v1/traces'],
  ['metrics', 'MetricsRequest', '/otel/v1/metrics'],
  ['logs', 'LogsRequest', '/v1/logs'],
]

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8'))
}

async function send(
  path: string,
  body: string | Uint8Array,
  headers: Record<string, string>,
  env?: Record<string, string>,
) {
  const t = testApp({ env })
  const res = await t.app.request(path, { method: 'POST', body, headers })
  const bytes = new Uint8Array(await res.arrayBuffer())
  const points = t.buffer.take().flatMap((b) => payloadShapes(b.payload))
  return { res, bytes, text: Buffer.from(bytes).toString(), points, t }
}

const JSON_CT = { 'content-type': 'application/json' }
const PB_CT = { 'content-type': 'application/x-protobuf' }

for (const [name, kind, path] of CASES) {
  test(`${name}: JSON, protobuf and gzipped protobuf map to the golden points`, async () => {
    const doc = fixture(name)
    const json = await send(path, JSON.stringify(doc), JSON_CT)
    assert.equal(json.res.status, 200, json.text)
    const goldenFile = new URL(`otlp-${name}.json`, GOLDEN)
    if (update) writeFileSync(goldenFile, `${JSON.stringify(json.points, null, 2)}\n`)
    const golden = JSON.parse(readFileSync(goldenFile, 'utf8'))
    assert.deepEqual(json.points, golden)
    const pb = otlpToProto(kind, doc)
    const proto = await send(path, pb, PB_CT)
    assert.equal(proto.res.status, 200, proto.text)
    assert.equal(proto.res.headers.get('content-type'), 'application/x-protobuf')
    assert.deepEqual(proto.points, golden)
    const gz = await send(path, zlib.gzipSync(pb), { ...PB_CT, 'content-encoding': 'gzip' })
    assert.deepEqual(gz.points, golden)
  })
}

test('a metric point without a value is answered as partial success, in both encodings', async () => {
  const doc = fixture('metrics')
  const json = await send('/v1/metrics', JSON.stringify(doc), JSON_CT)
  assert.deepEqual(JSON.parse(json.text), {
    partialSuccess: {
      rejectedDataPoints: '1',
      errorMessage: 'metric queue.depth: a data point without a value',
    },
  })
  const pb = await send('/v1/metrics', otlpToProto('MetricsRequest', doc), PB_CT)
  const r = new PbReader(pb.bytes)
  assert.equal(r.uvarint(), (1 << 3) | 2)
  const partial = r.sub()
  assert.equal(partial.uvarint(), 1 << 3)
  assert.equal(partial.int64(), 1)
  assert.equal(partial.uvarint(), (2 << 3) | 2)
  assert.equal(partial.string(), 'metric queue.depth: a data point without a value')
})

test('a full export answers an empty response; an empty request stores nothing', async () => {
  const traces = await send('/v1/traces', otlpToProto('TracesRequest', fixture('traces')), PB_CT)
  assert.equal(traces.bytes.length, 0)
  const empty = await send('/v1/traces', new Uint8Array(0), PB_CT)
  assert.equal(empty.res.status, 200)
  assert.equal(empty.points.length, 0)
  const accepted = await send('/v1/logs', '{}', JSON_CT, { ENV_OTLP_HTTP_STATUS_OK: '202' })
  assert.equal(accepted.res.status, 202)
  assert.equal(accepted.text, '{}')
})

test('malformed bodies, other types and too many entries get the agent error bodies', async () => {
  const bad = await send('/v1/traces', new Uint8Array([0x0a, 0x05, 0x01]), PB_CT)
  assert.equal(bad.res.status, 400)
  assert.equal(JSON.parse(bad.text).error_code, 'agent.invalidOtlp')
  const badJson = await send(
    '/v1/traces',
    '{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"xyz"}]}]}]}',
    JSON_CT,
  )
  assert.deepEqual(JSON.parse(badJson.text), {
    error_code: 'agent.invalidOtlp',
    message:
      'invalid OTLP json traces request: resourceSpans[0].scopeSpans[0].spans[0].traceId: must be a hex string',
  })
  const plain = await send('/v1/traces', 'x', { 'content-type': 'text/plain' })
  assert.equal(plain.res.status, 415)
  assert.equal(JSON.parse(plain.text).error_code, 'agent.unsupportedMediaType')
  const many = await send('/v1/traces', JSON.stringify(fixture('traces')), JSON_CT, {
    ENV_HTTP_MAX_POINTS_PER_REQUEST: '1',
  })
  assert.equal(many.res.status, 413)
  assert.equal(JSON.parse(many.text).error_code, 'agent.tooManyPoints')
})

test('attributes past max_attributes are dropped and counted; disabled routes answer 404', async () => {
  const doc = fixture('traces')
  const few = await send('/v1/traces', JSON.stringify(doc), JSON_CT, {
    ENV_OTLP_MAX_ATTRIBUTES: '1',
  })
  assert.equal(few.res.status, 200)
  const text = await few.t.metrics.registry.getSingleMetricAsString(
    'ferry_otlp_dropped_attributes_total',
  )
  assert.match(text, /ferry_otlp_dropped_attributes_total\{signal="traces"\} 6/)
  assert.equal(few.points[0].tags.http_status_code, undefined)
  const off = await send('/v1/traces', JSON.stringify(doc), JSON_CT, { ENV_OTLP_ENABLE: 'false' })
  assert.equal(off.res.status, 404)
})

test('sampling keeps every trace with an error span and the configured share of the rest', async () => {
  const doc = fixture('traces') as {
    resourceSpans: { scopeSpans: { spans: { traceId: string; status?: unknown }[] }[] }[]
  }
  const spans = doc.resourceSpans[0].scopeSpans[0].spans
  const ok = JSON.parse(JSON.stringify(spans[0]))
  ok.traceId = '00000000000000000000000000002710' // 10000 % 10000 = 0: kept at any rate above 0
  const out = JSON.parse(JSON.stringify(spans[0]))
  out.traceId = '0000000000000000000000000000270f' // 9999: left out below rate 1
  spans.push(ok, out)
  const r = await send('/v1/traces', JSON.stringify(doc), JSON_CT, {
    ENV_OTLP_SAMPLING_RATE: '0.5',
  })
  const ids = r.points.map((p) => (p.fields.trace_id as { string: string }).string)
  assert.deepEqual(ids, [spans[0].traceId, spans[1].traceId, ok.traceId])
  const text = await r.t.metrics.registry.getSingleMetricAsString('ferry_otlp_sampled_spans_total')
  assert.match(text, /ferry_otlp_sampled_spans_total\{signal="traces"\} 1/)
})

test('close_resource leaves out the whole resource group of a matching span, and counts it', async () => {
  const doc = fixture('traces') as {
    resourceSpans: {
      resource: { attributes: { key: string; value: { stringValue: string } }[] }
      scopeSpans: { spans: { name: string; spanId: string }[] }[]
    }[]
  }
  const health = JSON.parse(JSON.stringify(doc.resourceSpans[0]))
  health.resource.attributes = [{ key: 'service.name', value: { stringValue: 'health' } }]
  health.scopeSpans[0].spans[0].name = 'GET /ping'
  doc.resourceSpans.push(health)
  const services = (r: Awaited<ReturnType<typeof send>>) => r.points.map((p) => p.tags.service)
  const any = await send('/v1/traces', JSON.stringify(doc), JSON_CT, {
    ENV_OTLP_CLOSE_RESOURCE: '{"*": ["^GET /ping$"]}',
  })
  assert.equal(any.res.status, 200)
  assert.deepEqual(services(any), ['checkout', 'checkout'])
  const text = await any.t.metrics.registry.getSingleMetricAsString('ferry_otlp_closed_spans_total')
  assert.match(text, /ferry_otlp_closed_spans_total\{signal="traces"\} 2/)
  const other = await send('/v1/traces', JSON.stringify(doc), JSON_CT, {
    ENV_OTLP_CLOSE_RESOURCE: '{"checkout": ["ping"], "health": ["^SELECT x"]}',
  })
  assert.deepEqual(services(other), ['checkout', 'checkout', 'health', 'health'])
  const byService = await send('/v1/traces', JSON.stringify(doc), JSON_CT, {
    ENV_OTLP_CLOSE_RESOURCE: '{"health": ["^SELECT"]}',
  })
  assert.deepEqual(services(byService), ['checkout', 'checkout'])
})
