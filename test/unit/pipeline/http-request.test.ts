/**
 * http_request against a local HTTP server on a free loopback port (loopback allowed
 * explicitly): the reference's documented example, the prefix form, a POST with headers and
 * body, and each bound: off by default, internal addresses refused, the size cap, the
 * per-run call limit and the timeout.
 */
import assert from 'node:assert/strict'
import { Worker } from 'node:worker_threads'
import { after, before, test } from 'node:test'
import type { PipelineEngine } from '../../../src/pipeline/engine.js'
import { setHttpRequest, type HttpRequestOptions } from '../../../src/pipeline/lib/fn-http.js'
import { kv, runPpl, testEngine } from '../../helpers/pipeline.js'

let base = ''
let engine: PipelineEngine

const ON: HttpRequestOptions = {
  enable: true,
  allowInternal: true,
  timeoutMs: 10_000,
  maxBytes: 4096,
  maxCalls: 10,
}

// The server runs on its own thread: a script's call blocks this one while it waits.
const SERVER = `
const { createServer } = require('node:http')
const { parentPort } = require('node:worker_threads')
const hits = []
const server = createServer((req, res) => {
  let body = ''
  req.on('data', (c) => (body += c.toString()))
  req.on('end', () => {
    if (req.url === '/hits') return void res.end(JSON.stringify(hits.splice(0)))
    hits.push(req.method + ' ' + req.url + ' ' + (req.headers['x-k'] || '') + ' ' + body)
    if (req.url === '/slow') return void setTimeout(() => res.end('late'), 3000)
    if (req.url === '/big') return void res.end('x'.repeat(5000))
    res.statusCode = req.url === '/missing' ? 404 : 200
    res.end('{"a": "hello"}')
  })
})
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port))
`

let thread: Worker
const hits = async () => (await (await fetch(`${base}/hits`)).json()) as string[]

before(async () => {
  thread = new Worker(SERVER, { eval: true })
  const port = await new Promise<number>((r) => thread.once('message', r))
  base = `http://127.0.0.1:${port}`
  engine = await testEngine({ batchTimeoutMs: 20_000 })
})
after(async () => {
  setHttpRequest({ ...ON, enable: false })
  engine.dispose()
  await thread.terminate()
})

const run = (script: string) =>
  kv(runPpl(engine, 'http', script.replaceAll('BASE', base), ['x']).points[0]!)

const EXAMPLE = [
  'resp = http_request("GET", "BASE/testResp")',
  'resp_body = load_json(resp["body"])',
  'add_key(abc, resp["status_code"])',
  'add_key(a, resp_body["a"])',
].join('\n')

test('off unless enabled: nil, and no call leaves', async () => {
  setHttpRequest({ ...ON, enable: false })
  await hits()
  assert.equal(run('add_key(isnil, http_request("GET", "BASE/x") == nil)').isnil, true)
  assert.deepEqual(await hits(), [])
})

test('the documented example: status_code and body', () => {
  setHttpRequest(ON)
  const got = run(EXAMPLE)
  assert.deepEqual([got.abc, got.a], [200, 'hello'])
})

test('the prefix form, a POST with headers and body, and an error status', async () => {
  setHttpRequest(ON)
  await hits()
  const got = run(
    [
      'resp = http_request("POST", "BASE/missing", {"x-k": "v1"}, "payload", "hr_")',
      'add_key(code, resp["hr_status_code"])',
      'add_key(body, resp["hr_body"])',
    ].join('\n'),
  )
  assert.deepEqual([got.code, got.body], [404, '{"a": "hello"}'])
  assert.deepEqual(await hits(), ['POST /missing v1 payload'])
})

test('internal addresses are refused unless allowed', async () => {
  setHttpRequest({ ...ON, allowInternal: false })
  await hits()
  assert.equal(run('add_key(isnil, http_request("GET", "BASE/x") == nil)').isnil, true)
  assert.deepEqual(await hits(), [])
})

test('a body over the cap, a call past the run limit, a slow server: nil', async () => {
  setHttpRequest({ ...ON, maxCalls: 2 })
  assert.equal(run('add_key(isnil, http_request("GET", "BASE/big") == nil)').isnil, true)
  await hits()
  const calls = [
    'a = http_request("GET", "BASE/1")',
    'b = http_request("GET", "BASE/2")',
    'c = http_request("GET", "BASE/3")',
    'add_key(third, c == nil)',
    'add_key(second, b["status_code"])',
  ].join('\n')
  const got = run(calls)
  assert.deepEqual([got.second, got.third], [200, true])
  assert.equal((await hits()).length, 2)
  setHttpRequest({ ...ON, timeoutMs: 200 })
  const started = Date.now()
  assert.equal(run('add_key(isnil, http_request("GET", "BASE/slow") == nil)').isnil, true)
  // Bounded by the timeout, not the server's 3 s (generous margin for a loaded machine).
  assert.ok(Date.now() - started < 2900, `${Date.now() - started} ms`)
})
