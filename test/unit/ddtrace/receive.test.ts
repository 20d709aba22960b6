/**
 * The ddtrace receiver through app.request(): the fixture trace (three nested spans), sent as
 * v0.3 JSON, v0.4 msgpack and v0.5 msgpack with a string table, buffers exactly the points of
 * the golden file; the answers tracers expect; the keys that change the mapping; sampling and
 * the tracer's priority; limits and errors. `UPDATE_GOLDEN=1` rewrites the golden file.
 */
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import zlib from 'node:zlib'
import { testApp } from '../../helpers/app.js'
import { payloadShapes } from '../../helpers/points.js'
import { toJson, toV04, toV05, type FixtureTraces } from '../../helpers/ddtrace.js'

const FIXTURE = new URL('../../fixtures/ddtrace/trace.json', import.meta.url)
const GOLDEN = new URL('../../golden/ddtrace-trace.json', import.meta.url)
const update = process.env.UPDATE_GOLDEN === '1'
const MSGPACK = { 'content-type': 'application/msgpack' }

function fixture(): FixtureTraces {
  return JSON.parse(readFileSync(FIXTURE, 'utf8')).traces
}

async function send(
  path: string,
  body: string | Uint8Array | undefined,
  headers: Record<string, string> = MSGPACK,
  env?: Record<string, string>,
  method = 'PUT',
  pipelineDir?: string,
) {
  const t = testApp({ env, pipelineDir })
  const res = await t.app.request(path, { method, body, headers })
  const text = await res.text()
  const points = t.buffer.take().flatMap((b) => payloadShapes(b.payload))
  return { res, text, points, t }
}

test('v0.4 msgpack, v0.3 JSON and v0.5 string-table msgpack map to the golden points', async () => {
  const v04 = await send('/v0.4/traces', toV04(fixture()))
  assert.equal(v04.res.status, 200, v04.text)
  if (update) writeFileSync(GOLDEN, `${JSON.stringify(v04.points, null, 2)}\n`)
  const golden = JSON.parse(readFileSync(GOLDEN, 'utf8'))
  assert.equal(golden.length, 3)
  assert.deepEqual(v04.points, golden)
  const v03 = await send('/v0.3/traces', toJson(fixture()), { 'content-type': 'application/json' })
  assert.equal(v03.res.status, 200, v03.text)
  assert.deepEqual(v03.points, golden)
  const v05 = await send('/v0.5/traces', toV05(fixture()), MSGPACK, undefined, 'POST')
  assert.equal(v05.res.status, 200, v05.text)
  assert.deepEqual(v05.points, golden)
  const gz = await send('/v0.4/traces', zlib.gzipSync(toV04(fixture())), {
    ...MSGPACK,
    'content-encoding': 'gzip',
  })
  assert.deepEqual(gz.points, golden)
})

test('answers: OK for v0.3, rate_by_service with the rates version echoed for v0.4 and v0.5', async () => {
  const v03 = await send('/v0.3/traces', toV04(fixture()))
  assert.equal(v03.text, 'OK\n')
  const v04 = await send('/v0.4/traces', toV04(fixture()), {
    ...MSGPACK,
    'datadog-rates-payload-version': '7',
  })
  assert.equal(v04.res.headers.get('content-type'), 'application/json')
  assert.equal(v04.res.headers.get('datadog-rates-payload-version'), '7')
  assert.deepEqual(JSON.parse(v04.text), { rate_by_service: { 'service:,env:': 1 } })
  const empty = await send('/v0.5/traces', new Uint8Array(0))
  assert.equal(empty.res.status, 200)
  assert.equal(empty.points.length, 0)
  const none = await send('/v0.4/traces', new Uint8Array([0x90]))
  assert.equal(none.res.status, 200)
  assert.equal(none.points.length, 0)
  const info = await send('/info', undefined, {}, undefined, 'GET')
  assert.equal(info.res.status, 404)
})

test('id formats, customer tags, config tags and del_message follow the [ddtrace] keys', async () => {
  const hex = await send('/v0.4/traces', toV04(fixture()), MSGPACK, {
    ENV_INPUT_DDTRACE_TRACE_ID_64_BIT_HEX: 'true',
  })
  assert.equal(hex.points[1].fields.trace_id.string, 'ab54a98ceb1f0ad2')
  assert.equal(hex.points[1].fields.parent_id.string, '0f6b75ab2bc471c7')
  const low = await send('/v0.4/traces', toV04(fixture()), MSGPACK, {
    ENV_INPUT_DDTRACE_TRACE_128_BIT_ID: 'false',
    ENV_INPUT_DDTRACE_COMPATIBLE_OTEL: 'true',
  })
  assert.equal(low.points[0].fields.trace_id.string, '12345678901234567890')
  assert.equal(low.points[0].fields.span_id.string, '0f6b75ab2bc471c7')
  assert.equal(low.points[0].fields.parent_id.string, '0')
  const custom = await send('/v0.4/traces', toV04(fixture()), MSGPACK, {
    ENV_INPUT_DDTRACE_CUSTOMER_TAGS: 'component,reg:^db\\.row',
    ENV_INPUT_DDTRACE_TAGS: 'team=shop',
    ENV_INPUT_DDTRACE_DEL_MESSAGE: 'true',
  })
  const db = custom.points[2]
  assert.equal(db.tags.component, 'mysql2')
  assert.equal(db.tags.team, 'shop')
  assert.deepEqual(db.fields.db_row_count, { float: 0 })
  assert.equal(db.fields.message, undefined)
})

function traceOf(id: string, o: { error?: number; priority?: number; status?: string } = {}) {
  const t = fixture()[0].map((s) => ({ ...s, trace_id: id, error: 0 }))
  t[0].error = o.error ?? 0
  t[0].metrics = o.priority === undefined ? {} : { _sampling_priority_v1: o.priority }
  const { '_dd.p.tid': _high, ...meta } = t[0].meta // a 64-bit id, to read it in the test
  t[0].meta = o.status ? { ...meta, 'http.status_code': o.status } : meta
  return t
}

test('sampling keeps error traces and the configured share; the tracer can reject', async () => {
  const traces = [
    traceOf('20000'), // 20000 % 10000 = 0: kept at any rate
    traceOf('9999'), // 9999 > 5000: left out at 0.5
    traceOf('19999', { error: 1 }), // left out by the rate, but an error trace
    traceOf('30000', { priority: 0 }), // the tracer rejected it
    traceOf('40000', { status: '404' }), // omit_err_status
    traceOf('9998', { priority: 2 }), // the user kept it
  ]
  const out = await send('/v0.4/traces', toV04(traces), MSGPACK, {
    ENV_INPUT_DDTRACE_SAMPLING_RATE: '0.5',
    ENV_INPUT_DDTRACE_OMIT_ERR_STATUS: '404',
  })
  assert.equal(out.res.status, 200)
  const kept = [...new Set(out.points.map((p) => p.fields.trace_id.string))]
  assert.deepEqual(kept, ['20000', '19999', '9998'])
  assert.deepEqual(out.points[0].fields.dk_sampling_rate, { float: 0.5 })
  const text = await out.t.metrics.registry.getSingleMetricAsString(
    'ferry_ddtrace_dropped_spans_total',
  )
  for (const reason of ['priority', 'omitted', 'sampled'])
    assert.match(text, new RegExp(`reason="${reason}"} 3`))
})

test('a trace past trace_max_spans is cut and says so; the cut is counted', async () => {
  const out = await send('/v0.4/traces', toV04(fixture()), MSGPACK, {
    ENV_INPUT_DDTRACE_MAX_SPANS: '2',
  })
  assert.equal(out.points.length, 2)
  assert.match(String(out.points[1].fields.message.string), /__datakit_span_truncated/)
  const text = await out.t.metrics.registry.getSingleMetricAsString(
    'ferry_ddtrace_dropped_spans_total',
  )
  assert.match(text, /reason="truncated"} 1/)
})

test('bad bodies, deep nesting, long strings, too many spans and big bodies are refused', async () => {
  const bad = await send('/v0.4/traces', new Uint8Array([0x91, 0x91, 0x81, 0xa1]))
  assert.equal(bad.res.status, 400)
  assert.equal(JSON.parse(bad.text).error_code, 'agent.invalidDdtrace')
  const shape = await send('/v0.4/traces', new Uint8Array([0x91, 0x91, 0x05]))
  assert.deepEqual(JSON.parse(shape.text), {
    error_code: 'agent.invalidDdtrace',
    message: 'invalid ddtrace v0.4 request: traces[0][0]: must be a map',
  })
  const deep = await send('/v0.4/traces', new Uint8Array(64).fill(0x91))
  assert.equal(deep.res.status, 413)
  assert.equal(JSON.parse(deep.text).error_code, 'agent.ddtraceLimitExceeded')
  const t = fixture()
  t[0][0].meta['error.stack'] = 'x'.repeat(2048)
  const long = await send('/v0.4/traces', toV04(t), MSGPACK, {
    ENV_INPUT_DDTRACE_MAX_STRING_BYTES: '1KiB',
  })
  assert.equal(long.res.status, 413)
  assert.equal(JSON.parse(long.text).error_code, 'agent.ddtraceLimitExceeded')
  const many = await send('/v0.4/traces', toV04(fixture()), MSGPACK, {
    ENV_HTTP_MAX_POINTS_PER_REQUEST: '2',
  })
  assert.equal(many.res.status, 413)
  assert.equal(JSON.parse(many.text).error_code, 'agent.tooManyPoints')
  const big = await send('/v0.4/traces', new Uint8Array(2 * 1024 * 1024), MSGPACK, {
    ENV_INPUT_DDTRACE_MAX_BODY_MB: '1',
  })
  assert.equal(big.res.status, 413)
  assert.equal(JSON.parse(big.text).error_code, 'agent.bodyTooLarge')
  const off = await send('/v0.4/traces', toV04(fixture()), MSGPACK, {
    ENV_INPUT_DDTRACE_ENABLE: 'false',
  })
  assert.equal(off.res.status, 404)
})

test('spans run the tracing pipeline script named by their service, as every trace does', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ferry-ddtrace-pl-'))
  mkdirSync(path.join(dir, 'tracing'))
  writeFileSync(path.join(dir, 'tracing', 'shop-api.p'), 'add_key("pipelined", "yes")\n')
  const out = await send('/v0.4/traces', toV04(fixture()), MSGPACK, undefined, 'PUT', dir)
  assert.equal(out.res.status, 200, out.text)
  assert.deepEqual(
    out.points.map((p) => [p.tags.service, p.fields.pipelined?.string]),
    [
      ['shop-api', 'yes'],
      ['shop-api', 'yes'],
      ['shop-mysql', undefined],
    ],
  )
})
