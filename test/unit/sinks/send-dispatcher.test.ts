/**
 * Uploads to an upstream without a dispatcher of its own (the embedded workspace) keep working
 * after Node's built-in `fetch` has run in the process: that `fetch` installs its own bundled
 * undici's Agent as the process-wide dispatcher, which the upload's `request` cannot drive. Its
 * own file, and the upload's modules imported only after that `fetch`, so that the built-in
 * one is the first to set the process's dispatcher (as in an agent whose first use of it comes
 * before the upload code is loaded).
 */
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'
import { test } from 'node:test'
import { GZIP_SEND, uploadBody } from '../../helpers/upload-body.js'

test("uploads work after Node's built-in fetch has made the process's dispatcher", async () => {
  const bodies: Buffer[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => res.end(void bodies.push(Buffer.concat(chunks))))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}?token=tkn_x`
  try {
    await (await fetch(url, { method: 'POST', body: 'x' })).arrayBuffer()
    const { httpSend } = await import('../../../src/sinks/dataway/send.js')
    const { parseUpstream } = await import('../../../src/sinks/dataway/upstream.js')
    const payload = Buffer.from('a protobuf body')
    const send = httpSend(parseUpstream(url), GZIP_SEND)
    await send(uploadBody(payload), new AbortController().signal)
    assert.deepEqual(zlib.gunzipSync(bodies[1]), payload)
  } finally {
    await new Promise<void>((r) => server.close(() => r()))
  }
})
