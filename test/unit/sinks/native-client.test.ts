/**
 * Node's client for directly reached upstreams answers and fails as `fetch` would: bodies and
 * headers sent as given, redirects followed with fetch's method rules, aborts and network errors
 * rejected, connections kept alive, an answer's text read once and capped.
 */
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import { NativeClient } from '../../../src/sinks/dataway/native-client.js'

interface Seen {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  body: string
}

const seen: Seen[] = []
let connections = 0
let base = ''
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => {
    seen.push({
      method: req.method!,
      url: req.url!,
      headers: req.headers,
      body: Buffer.concat(chunks).toString(),
    })
    const m = /^\/r(\d{3})(?:\/(\d+))?/.exec(req.url!)
    if (m) {
      const left = Number(m[2] ?? 0)
      res.writeHead(Number(m[1]), { Location: left > 0 ? `/r${m[1]}/${left - 1}` : '/done' })
      return res.end()
    }
    if (req.url === '/big') return res.end('x'.repeat(200_000))
    if (req.url === '/hang') return
    res.writeHead(201, { 'X-Answer': 'yes' })
    res.end(`got ${req.method} ${Buffer.concat(chunks).length}`)
  })
})
server.on('connection', () => connections++)

before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
after(async () => {
  server.closeAllConnections()
  await new Promise<void>((r) => server.close(() => r()))
})

const post = (client: NativeClient, path: string, signal = new AbortController().signal) =>
  client.request(base + path, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/protobuf',
      'Content-Encoding': 'gzip',
      'X-Points': '3',
    },
    body: Buffer.from('abcdef'),
    signal,
  })

test('a POST sends its body and headers; the answer gives status, headers and text', async () => {
  const client = new NativeClient()
  seen.length = 0
  const res = await post(client, '/w?token=t')
  assert.equal(res.status, 201)
  assert.equal(res.header('x-answer'), 'yes')
  assert.equal(res.header('missing'), null)
  assert.equal(await res.text(), 'got POST 6')
  assert.equal(await res.text(), 'got POST 6')
  assert.deepEqual(
    [
      seen[0].method,
      seen[0].url,
      seen[0].body,
      seen[0].headers['content-length'],
      seen[0].headers['x-points'],
    ],
    ['POST', '/w?token=t', 'abcdef', '6', '3'],
  )
  client.close()
})

test('307 and 308 repeat the POST with its body; 303, 301 and 302 go on as a GET without it', async () => {
  const client = new NativeClient()
  for (const [code, method, body] of [
    [307, 'POST', 'abcdef'],
    [308, 'POST', 'abcdef'],
    [303, 'GET', ''],
    [301, 'GET', ''],
    [302, 'GET', ''],
  ] as const) {
    seen.length = 0
    const res = await post(client, `/r${code}/1`)
    assert.equal(res.status, 201, `${code}`)
    assert.deepEqual(
      seen.map((s) => s.url),
      [`/r${code}/1`, `/r${code}/0`, '/done'],
    )
    const last = seen[2]
    assert.deepEqual([last.method, last.body], [method, body], `${code}`)
    if (method === 'GET')
      assert.deepEqual(
        [last.headers['content-type'], last.headers['content-encoding'], last.headers['x-points']],
        [undefined, undefined, '3'],
      )
  }
  client.close()
})

test('more than 20 redirects reject', async () => {
  const client = new NativeClient()
  seen.length = 0
  await assert.rejects(post(client, '/r307/25'), /redirect count exceeded/)
  assert.equal(seen.length, 21)
  client.close()
})

test('an abort and a refused connection reject', async () => {
  const client = new NativeClient()
  const ac = new AbortController()
  const pending = post(client, '/hang', ac.signal)
  setTimeout(() => ac.abort(), 50)
  await assert.rejects(pending, { name: 'AbortError' })
  const closed = http.createServer()
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r))
  const port = (closed.address() as AddressInfo).port
  await new Promise<void>((r) => closed.close(() => r()))
  await assert.rejects(
    client.request(`http://127.0.0.1:${port}/`, {
      method: 'GET',
      headers: {},
      signal: new AbortController().signal,
    }),
    /ECONNREFUSED/,
  )
  client.close()
})

test('requests in turn share one kept-alive connection; a long answer text is cut at 64 KiB', async () => {
  const client = new NativeClient()
  const before = connections
  for (let i = 0; i < 3; i++) await (await post(client, '/w')).text()
  const big = await (await post(client, '/big')).text()
  assert.equal(big.length, 64 * 1024)
  assert.equal(await (await post(client, '/w')).text(), 'got POST 6')
  assert.equal(connections - before, 1)
  client.close()
})
