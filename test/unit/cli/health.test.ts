/** `ferry health`: which URL it asks (config or --url) and what counts as an answer. */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { healthUrl, ping } from '../../../src/cli/health.js'

const args = (flags: Record<string, string>, config = '/nonexistent.conf') => ({
  command: ['health'],
  config,
  flags,
})

test('the URL follows [http_api] listen; a wildcard address means this host', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-health-'))
  const file = path.join(dir, 'ferry.conf')
  fs.writeFileSync(file, '[http_api]\nlisten = "0.0.0.0:19529"\n')
  const saved = process.env.ENV_HTTP_LISTEN
  delete process.env.ENV_HTTP_LISTEN
  try {
    assert.equal(healthUrl(args({}, file)), 'http://127.0.0.1:19529/v1/ping')
  } finally {
    if (saved !== undefined) process.env.ENV_HTTP_LISTEN = saved
  }
})

test('--url: the agent address gets /v1/ping, a URL with a path is kept', () => {
  assert.equal(healthUrl(args({ url: 'http://10.0.0.1:9529' })), 'http://10.0.0.1:9529/v1/ping')
  assert.equal(healthUrl(args({ url: 'http://h:1/custom' })), 'http://h:1/custom')
})

test('ping resolves with the status, and rejects when nothing listens', async () => {
  const server = http.createServer((req, res) => {
    res.statusCode = req.url === '/v1/ping' ? 200 : 503
    res.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  try {
    assert.equal(await ping(`${base}/v1/ping`), 200)
    assert.equal(await ping(`${base}/other`), 503)
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
  await assert.rejects(ping(`${base}/v1/ping`), /ECONNREFUSED/)
})
