/** Access control through app.request(): public routes, 403, rate limit, timeout, CORS. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { DecodeOk, DecodeTask, Decoder } from '../../../src/ingest/protocol.js'
import { InlineDecoder } from '../../../src/ingest/inline.js'
import { RateLimiter } from '../../../src/sources/http/access/rate-limit.js'
import { testApp } from '../../helpers/app.js'

const OTLP = ['traces', 'metrics', 'logs'].flatMap((s) => [`/v1/${s}`, `/otel/v1/${s}`])
const DDTRACE = ['v0.3', 'v0.4', 'v0.5'].map((v) => `/${v}/traces`)
const PUBLIC = new Set(['/v1/ping', '/v1/ntp', '/v1/write/:category', ...OTLP, ...DDTRACE])
const REMOTE: Record<string, string>[] = [
  { 'X-Forwarded-For': '203.0.113.7' },
  { 'X-Real-IP': '203.0.113.8' },
]

function concrete(path: string): string {
  return path.replace(':category', 'metric')
}

test('a remote-looking request to every non-public route gets 403 naming the route', async () => {
  const { app } = testApp()
  const routes = app.routes.filter((r) => r.path !== '/*' && !PUBLIC.has(r.path))
  assert.ok(routes.length >= 12, `routes: ${routes.map((r) => r.path)}`)
  for (const r of routes)
    for (const headers of REMOTE) {
      const path = concrete(r.path)
      const res = await app.request(path, { method: r.method, headers })
      assert.equal(res.status, 403, `${r.method} ${path}`)
      assert.deepEqual(await res.json(), {
        error_code: 'agent.publicAccessDisabled',
        message: `api ${path} disabled from external IP, only loopback(localhost) allowed`,
      })
    }
  // Unknown paths too: a remote client learns nothing about what exists.
  const res = await app.request('/nope', { headers: REMOTE[0] })
  assert.equal(res.status, 403)
})

test('public routes answer remote clients; public_apis opens more', async () => {
  const { app } = testApp()
  for (const headers of REMOTE) {
    assert.equal((await app.request('/v1/ping', { headers })).status, 200)
    assert.equal((await app.request('/v1/ntp', { headers })).status, 200)
    const w = await app.request('/v1/write/logging', { method: 'POST', body: 'm f=1i', headers })
    assert.equal(w.status, 200)
    for (const path of OTLP) {
      const json = { ...headers, 'Content-Type': 'application/json' }
      const o = await app.request(path, { method: 'POST', body: '{}', headers: json })
      assert.equal(o.status, 200, path)
    }
    for (const path of DDTRACE) {
      const msgpack = { ...headers, 'Content-Type': 'application/msgpack' }
      const d = await app.request(path, {
        method: 'PUT',
        body: new Uint8Array([0x92, 0x90, 0x90]), // [[], []]: empty, in every version
        headers: msgpack,
      })
      assert.equal(d.status, 200, path)
    }
  }
  const open = testApp({ env: { ENV_HTTP_PUBLIC_APIS: 'metrics, /v1/global/*' } }).app
  const h = REMOTE[0]
  assert.equal((await open.request('/metrics', { headers: h })).status, 200)
  assert.equal((await open.request('/v1/global/host/tags', { headers: h })).status, 200)
  assert.equal((await open.request('/v1/global/election/tags', { headers: h })).status, 200)
  assert.equal((await open.request('/v1/lasterror', { method: 'POST', headers: h })).status, 403)
})

test('rate limit: per client and route, 429 agent.reachMaxAPILimit with the reference headers', async () => {
  const { app } = testApp({ env: { ENV_REQUEST_RATE_LIMIT: '3' } })
  const ping = (ip: string, path = '/v1/ping') =>
    app.request(path, { headers: { 'X-Forwarded-For': ip } })
  for (let i = 0; i < 3; i++) assert.equal((await ping('198.51.100.1')).status, 200)
  const limited = await ping('198.51.100.1')
  assert.equal(limited.status, 429)
  assert.deepEqual(await limited.json(), {
    error_code: 'agent.reachMaxAPILimit',
    message: 'more than 3 requests per second to /v1/ping from 198.51.100.1',
  })
  assert.equal(limited.headers.get('retry-after'), '1')
  assert.equal(limited.headers.get('x-rate-limit-limit'), '3.00')
  assert.equal(limited.headers.get('x-rate-limit-duration'), '1')
  assert.equal(limited.headers.get('x-rate-limit-request-remote-addr'), '198.51.100.1')
  assert.equal(limited.headers.get('x-rate-limit-request-forwarded-for'), '198.51.100.1')
  // Another client, or another route, has its own bucket.
  assert.equal((await ping('198.51.100.2')).status, 200)
  assert.equal((await ping('198.51.100.1', '/v1/ntp')).status, 200)
})

test('token buckets refill at the rate, cap at the burst, and forget idle clients', () => {
  let now = 0
  const rl = new RateLimiter(10, 0, 3, () => now)
  const takes = (key: string, n: number) =>
    Array.from({ length: n }, () => rl.take(key)).filter(Boolean).length
  assert.equal(takes('a', 15), 10) // burst defaults to the rate
  now += 100
  assert.equal(takes('a', 5), 1) // 10/s: one token per 100 ms
  now += 60_000
  assert.equal(takes('a', 20), 10) // refilled to the burst, not beyond
  rl.configure(2, 5)
  now += 10_000
  assert.equal(takes('a', 20), 5)
  assert.equal(takes('b', 1) + takes('c', 1) + takes('d', 1), 3)
  assert.equal(rl.size(), 3) // at most 3 keys: the least recently used went
  rl.configure(0, 0)
  assert.equal(takes('a', 1000), 1000) // 0 turns the limiter off
})

class SlowDecoder implements Decoder {
  private readonly inner = new InlineDecoder(null)
  constructor(private readonly ms: number) {}
  async decode(task: DecodeTask): Promise<DecodeOk> {
    const out = await this.inner.decode(task)
    await new Promise((r) => setTimeout(r, this.ms))
    return out
  }
}

test('timeout: 408 agent.requestTimeout, and the late write stores nothing', async () => {
  const { app, buffer } = testApp({
    env: { ENV_HTTP_TIMEOUT: '100ms' },
    decoder: new SlowDecoder(300),
  })
  const res = await app.request('/v1/write/metric', { method: 'POST', body: 'm f=1i' })
  assert.equal(res.status, 408)
  assert.deepEqual(await res.json(), {
    error_code: 'agent.requestTimeout',
    message: 'timeout(100ms)',
  })
  await new Promise((r) => setTimeout(r, 400))
  assert.equal(buffer.stats().points, 0)
  const fast = testApp({ env: { ENV_HTTP_TIMEOUT: '1s' }, decoder: new SlowDecoder(10) })
  const ok = await fast.app.request('/v1/write/metric', { method: 'POST', body: 'm f=1i' })
  assert.equal(ok.status, 200)
  assert.equal(fast.buffer.stats().points, 1)
})

test('CORS: OPTIONS answers 204 on any path; answers, errors included, carry the headers', async () => {
  const { app } = testApp()
  const origin = 'https://shop.example.com'
  const pre = await app.request('/v1/write/rum', {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'content-type, x-custom',
      ...REMOTE[0],
    },
  })
  assert.equal(pre.status, 204)
  assert.equal(pre.headers.get('access-control-allow-origin'), origin)
  assert.equal(pre.headers.get('access-control-allow-credentials'), 'true')
  assert.equal(pre.headers.get('access-control-allow-methods'), 'POST,OPTIONS,GET,PUT,DELETE')
  assert.equal(pre.headers.get('access-control-allow-headers'), 'content-type,x-custom')
  assert.equal(pre.headers.get('access-control-max-age'), '7200')
  assert.equal((await app.request('/anything', { method: 'OPTIONS' })).status, 204)
  const bad = await app.request('/v1/write/rum', {
    method: 'POST',
    body: 'view,app_id=a',
    headers: { Origin: origin },
  })
  assert.equal(bad.status, 400)
  assert.equal(bad.headers.get('access-control-allow-origin'), origin)
  const none = await app.request('/v1/ping')
  assert.equal(none.headers.get('access-control-allow-origin'), '*')
})

test('CORS: allowed_cors_origins limits which origins get the header', async () => {
  const env = { ENV_HTTP_ALLOWED_CORS_ORIGINS: 'https://a.example.com' }
  const { app } = testApp({ env })
  const ask = (o: string) => app.request('/v1/ping', { headers: { Origin: o } })
  const a = await ask('https://a.example.com')
  assert.equal(a.headers.get('access-control-allow-origin'), 'https://a.example.com')
  const b = await ask('https://b.example.com')
  assert.equal(b.headers.get('access-control-allow-origin'), null)
  assert.equal(b.status, 200) // the request itself is not refused; the browser enforces
})
