/**
 * One upload attempt's encoding: `[dataway] compression` applies unless the upstream overrides
 * it (the embedded workspace takes bodies uncompressed).
 */
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'
import { after, before, test } from 'node:test'
import { httpSend } from '../../../src/sinks/dataway/send.js'
import { parseUpstream, type Upstream } from '../../../src/sinks/dataway/upstream.js'
import type { UploadBody } from '../../../src/sinks/dataway/bodies.js'

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
const body: UploadBody = {
  category: 'metric',
  payload,
  points: 1,
  pkgId: 'p1',
  firstSeq: 1,
  lastSeq: 1,
  receivedAt: Date.now(),
  expiredPoints: 0,
}
const opts = { compression: 'gzip' as const, gzipLevel: 1, userAgent: 'test' }

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
