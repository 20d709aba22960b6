/**
 * The pipeline through the HTTP app (no socket): `POST /v1/pipeline/debug` as spec 4.11 and
 * the reference's asserted request, and writes running the shipped scripts.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { decodePoints } from '../../../src/decode/codec/protobuf-decode.js'
import type { DebugContent } from '../../../src/pipeline/debug/types.js'
import { FIXTURES, testApp } from '../../helpers/app.js'
import { kv } from '../../helpers/pipeline.js'

interface DebugResponse {
  content: DebugContent
  error_code?: string
  message?: string
}

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64')
const cases = JSON.parse(readFileSync(new URL('pipeline-cases.json', FIXTURES), 'utf8')) as {
  id: string
  input: string
  script: string
  expect: { fields: Record<string, unknown> }
}[]
const SHIPPED = new URL('../../../conf.d/pipeline', import.meta.url).pathname

async function debug(body: unknown) {
  const { app } = testApp()
  const res = await app.request('/v1/pipeline/debug', {
    method: 'POST',
    body: JSON.stringify(body),
  })
  return { status: res.status, json: (await res.json()) as DebugResponse }
}

test('debug: the reference request (nginx error log, use("b.p"), benchmark)', async () => {
  const c = cases.find((x) => x.id === 'pl-debug-nginx-error')!
  const r = await debug({
    pipeline: { logging: { nginx: b64(c.script + '\nuse("b.p")'), b: b64('add_key(b_p, true)') } },
    script_name: 'nginx',
    category: 'logging',
    data_type: 'text/plain',
    data: [b64(c.input)],
    benchmark: true,
  })
  assert.equal(r.status, 200)
  const content = r.json.content
  assert.deepEqual(Object.keys(content).sort(), ['benchmark', 'cost', 'pl_errors', 'plresults'])
  assert.match(content.cost, /^\d+(\.\d+)?(ns|µs|ms|s)$/)
  assert.match(content.benchmark, /^ {0,7}\d+\t *\d+ ns\/op$/)
  assert.deepEqual(content.pl_errors, [])
  assert.equal(content.plresults.length, 1)
  const res = content.plresults[0]
  assert.equal(res.dropped, false)
  assert.equal(res.run_error, null)
  assert.equal(res.point.name, 'nginx')
  assert.equal(res.point.time, 1636534793)
  assert.equal(res.point.time_ns, 0)
  assert.deepEqual(res.point.fields, { message: c.input, ...c.expect.fields })
})

test('debug: a compile error answers 200 with pl_errors and its position', async () => {
  const r = await debug({
    pipeline: { logging: { broken: b64('add_key(a, 1)\ngrok(_, "x"\n') } },
    script_name: 'broken',
    category: 'logging',
    data: [b64('x')],
  })
  assert.equal(r.status, 200)
  assert.deepEqual(r.json.content.plresults, [])
  assert.deepEqual(r.json.content.pl_errors, [
    {
      pos_chain: [{ file: 'broken.p', ln: 3, col: 1, pos: 26 }],
      error: 'expected ")", found end of script',
    },
  ])
})

test('debug: a multi-line log splits into records; drop() marks dropped; GBK decodes', async () => {
  const script = 'grok(_, "^%{WORD:level} %{GREEDYDATA:msg}")\nif level == "DEBUG" { drop() }'
  const text = 'ERROR failed\n\tat a.b(C.java:1)\n\tat d.e(F.java:2)\nDEBUG noise\nINFO 你好'
  const r = await debug({
    pipeline: { logging: { app: b64(script) } },
    script_name: 'app',
    category: 'logging',
    encode: 'gbk',
    data: [new TextEncoderGbk().encode(text).toString('base64')],
  })
  const results = r.json.content.plresults as {
    point: { fields: Record<string, unknown> }
    dropped: boolean
  }[]
  assert.deepEqual(
    results.map((x) => [x.point.fields.message, x.point.fields.msg, x.dropped]),
    [
      ['ERROR failed\n\tat a.b(C.java:1)\n\tat d.e(F.java:2)', 'failed', false],
      ['DEBUG noise', 'noise', true],
      ['INFO 你好', '你好', false],
    ],
  )
})

/** GBK bytes for the test text (ASCII plus 你好). */
class TextEncoderGbk {
  encode(s: string): Buffer {
    return Buffer.concat(
      [...s].map((ch) =>
        ch === '你'
          ? Buffer.from([0xc4, 0xe3])
          : ch === '好'
            ? Buffer.from([0xba, 0xc3])
            : Buffer.from(ch),
      ),
    )
  }
}

test('debug: line protocol data for a metric script', async () => {
  const r = await debug({
    pipeline: { metric: { cpu: b64('set_tag(region, "eu")\ncast(usage, "float")') } },
    script_name: 'cpu',
    category: 'metric',
    data_type: 'application/line-protocol',
    data: [b64('cpu,host=a usage=5i 1700000000000000001')],
  })
  const p = r.json.content.plresults[0].point
  assert.deepEqual(p, {
    name: 'cpu',
    tags: { host: 'a', region: 'eu' },
    fields: { usage: 5 },
    time: 1700000000,
    time_ns: 1,
    dropped: false,
  })
})

test('debug: bad category 400 agent.invalidCategory; unknown script 400 agent.invalidPipeline', async () => {
  const bad = await debug({ pipeline: {}, script_name: 'x', category: 'nope', data: [] })
  assert.equal(bad.status, 400)
  assert.deepEqual(bad.json, {
    error_code: 'agent.invalidCategory',
    message: 'invalid category "nope"',
  })
  const missing = await debug({
    pipeline: { logging: {} },
    script_name: 'x',
    category: 'logging',
    data: [],
  })
  assert.equal(missing.status, 400)
  assert.equal(missing.json.error_code, 'agent.invalidPipeline')
})

test('write: logging points run the shipped script named by their source; others pass', async () => {
  const { app, buffer } = testApp({ pipelineDir: SHIPPED })
  const line =
    '127.0.0.1 - - [24/Mar/2021:13:54:19 +0800] \\"GET /x HTTP/1.1\\" 404 5 \\"-\\" \\"curl/8\\"'
  const body = `nginx message="${line}" 1700000000000000000\nother message="hi" 1700000000000000000`
  const res = await app.request('/v1/write/logging', { method: 'POST', body })
  assert.equal(res.status, 200)
  const [nginx, other] = decodePoints(buffer.take()[0].payload)
  const f = kv(nginx)
  assert.equal(f.status, 'warning')
  assert.equal(f.status_code, 404)
  assert.equal(f.http_url, '/x')
  assert.equal(nginx.time, 1616565259000000000n)
  assert.equal(kv(other).status, 'unknown')
  const metrics = await (await app.request('/metrics')).text()
  assert.match(metrics, /ferry_pipeline_points_total\{category="logging",script="nginx"\} 1/)
})

test('write: ?source=- turns the pipeline off', async () => {
  const { app, buffer } = testApp({ pipelineDir: SHIPPED })
  const body = 'nginx message="2021/04/29 16:24:38 [emerg] boom" 1700000000000000000'
  await app.request('/v1/write/logging?source=-', { method: 'POST', body })
  assert.equal(kv(decodePoints(buffer.take()[0].payload)[0]).status, 'unknown')
})

test('debug: a failing script reports run_error and the record unchanged', async () => {
  const r = await debug({
    pipeline: { logging: { 'bad.js': b64("add_key('x', 1)\nthrow new Error('boom')") } },
    script_name: 'bad.js',
    category: 'logging',
    data: [b64('hello')],
  })
  const res = r.json.content.plresults[0]
  assert.deepEqual(res.point.fields, { message: 'hello' })
  assert.match(String(res.run_error?.error), /^Error: boom/)
})
