/**
 * One upload attempt's encoding: `[dataway] compression` applies unless the upstream overrides
 * it (the embedded workspace takes bodies uncompressed).
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'
import { after, before, test } from 'node:test'
import { gzipChunkSize, httpSend } from '../../../src/sinks/dataway/send.js'
import { parseUpstream, type Upstream } from '../../../src/sinks/dataway/upstream.js'
import { GZIP_SEND, uploadBody } from '../../helpers/upload-body.js'

const seen: { encoding: string | undefined; body: Buffer }[] = []
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => {
    seen.push({ encoding: req.headers['content-encoding'], body: Buffer.concat(chunks) })
    res.end()
  })
})
let url = ''
before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}?token=tkn_x`
})
after(() => new Promise<void>((r) => server.close(() => r())))

const payload = Buffer.from('a protobuf body, as far as this test cares')
const body = uploadBody(payload)
const opts = GZIP_SEND

test('the configured compression applies to an upstream without its own', async () => {
  seen.length = 0
  await httpSend(parseUpstream(url), opts)(body, new AbortController().signal)
  assert.equal(seen[0].encoding, 'gzip')
  assert.deepEqual(zlib.gunzipSync(seen[0].body), payload)
})

test("an upstream's own compression wins: none sends the body as it is", async () => {
  seen.length = 0
  const up: Upstream = { ...parseUpstream(url), compression: 'none' }
  await httpSend(up, opts)(body, new AbortController().signal)
  assert.equal(seen[0].encoding, undefined)
  assert.deepEqual(seen[0].body, payload)
})

test('a large body gzips in one chunk of half its size and arrives whole', async () => {
  seen.length = 0
  // Random bytes do not compress: the output outgrows the one chunk, so a second pass follows.
  const random = randomBytes(300_000)
  const text = Buffer.from('cpu,host=h usage=1\n'.repeat(60_000))
  for (const payload of [text, random]) {
    await httpSend(parseUpstream(url), opts)({ ...body, payload }, new AbortController().signal)
  }
  assert.deepEqual(zlib.gunzipSync(seen[0].body), text)
  assert.deepEqual(zlib.gunzipSync(seen[1].body), random)
  assert.equal(gzipChunkSize(text.length), text.length >>> 1)
  assert.equal(gzipChunkSize(100), zlib.constants.Z_DEFAULT_CHUNK)
})

test('an upload follows a 307 to where the upstream sends it, body and all', async () => {
  seen.length = 0
  const moved = http.createServer((req, res) => {
    res.writeHead(307, { Location: url.replace('?', '/v1/write/metric?') }).end()
  })
  await new Promise<void>((r) => moved.listen(0, '127.0.0.1', r))
  const from = `http://127.0.0.1:${(moved.address() as AddressInfo).port}?token=tkn_x`
  try {
    await httpSend(parseUpstream(from), opts)(body, new AbortController().signal)
  } finally {
    await new Promise<void>((r) => moved.close(() => r()))
  }
  assert.equal(seen.length, 1)
  assert.deepEqual(zlib.gunzipSync(seen[0].body), payload)
})

test("an upstream's refusal carries its status, text and Retry-After", async () => {
  const busy = http.createServer((req, res) => {
    req.resume()
    res.writeHead(429, { 'Retry-After': '7' }).end('slow down')
  })
  await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r))
  const to = `http://127.0.0.1:${(busy.address() as AddressInfo).port}?token=tkn_x`
  try {
    await assert.rejects(httpSend(parseUpstream(to), opts)(body, new AbortController().signal), {
      code: 'uploadFailed',
      httpStatus: 429,
      responseText: 'slow down',
      retryAfterMs: 7000,
    })
  } finally {
    await new Promise<void>((r) => busy.close(() => r()))
  }
})
