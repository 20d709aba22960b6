/**
 * Rate limiting keyed on what a client cannot forge (issue 14): the socket address, forwarding
 * headers only from trusted proxies; echoed header values clipped and the answer's headers
 * bounded; bodies limited while they are read.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { testApp } from '../../helpers/app.js'

/** Hono's third argument: the bindings @hono/node-server passes (only the socket is read). */
const from = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } })

function headerBytes(res: Response): number {
  let n = 0
  for (const [k, v] of res.headers) n += k.length + v.length + 4
  return n
}

test('rotating X-Forwarded-For from an untrusted address shares one bucket', async () => {
  const { app } = testApp({ env: { ENV_REQUEST_RATE_LIMIT: '1' } })
  const statuses: Record<number, number> = {}
  const started = performance.now()
  for (let i = 0; i < 5000; i++) {
    const res = await app.request(
      '/v1/ping',
      { headers: { 'X-Forwarded-For': `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}` } },
      from('192.0.2.10'),
    )
    statuses[res.status] = (statuses[res.status] ?? 0) + 1
  }
  // One token at first, then one a second: however many addresses the header names.
  const seconds = (performance.now() - started) / 1000
  assert.ok(statuses[200] <= 1 + Math.ceil(seconds), `${JSON.stringify(statuses)} in ${seconds}s`)
  const limited = await app.request(
    '/v1/ping',
    { headers: { 'X-Forwarded-For': '203.0.113.1' } },
    from('192.0.2.10'),
  )
  assert.deepEqual(await limited.json(), {
    error_code: 'agent.reachMaxAPILimit',
    message: 'more than 1 requests per second to /v1/ping from 192.0.2.10',
  })
  assert.equal(limited.headers.get('x-rate-limit-request-remote-addr'), '192.0.2.10')
})

test('a trusted proxy: the last untrusted X-Forwarded-For hop, else X-Real-IP', async () => {
  const { app } = testApp({
    env: { ENV_REQUEST_RATE_LIMIT: '1', ENV_HTTP_TRUSTED_PROXIES: '10.0.0.0/8,::1' },
  })
  const ask = async (peer: string, headers: Record<string, string>) => {
    const res = await app.request('/v1/ntp', { headers }, from(peer))
    return res.headers.get('x-rate-limit-request-remote-addr')
  }
  assert.equal(await ask('10.1.2.3', { 'X-Forwarded-For': '6.6.6.6, 203.0.113.5' }), '203.0.113.5')
  assert.equal(await ask('10.1.2.3', { 'X-Forwarded-For': '203.0.113.6, 10.9.9.9' }), '203.0.113.6')
  assert.equal(await ask('::1', { 'X-Real-IP': '203.0.113.7' }), '203.0.113.7')
  assert.equal(await ask('10.1.2.3', { 'X-Forwarded-For': 'not-an-ip' }), '10.1.2.3')
  assert.equal(await ask('::ffff:10.1.2.3', { 'X-Forwarded-For': '203.0.113.8' }), '203.0.113.8')
  assert.equal(await ask('192.0.2.1', { 'X-Forwarded-For': '203.0.113.9' }), '192.0.2.1')
})

test('a 14 KB X-Forwarded-For is clipped in the answer; answer headers stay under 8 KiB', async () => {
  const { app } = testApp({ env: { ENV_REQUEST_RATE_LIMIT: '100' } })
  const xff = Array.from({ length: 1400 }, (_, i) => `10.0.${i >> 8}.${i & 255}`).join(', ')
  assert.ok(xff.length > 14_000)
  const res = await app.request(
    '/v1/ping',
    { headers: { 'X-Forwarded-For': xff } },
    from('192.0.2.11'),
  )
  assert.equal(res.status, 200)
  assert.equal(
    res.headers.get('x-rate-limit-request-forwarded-for'),
    `${xff.slice(0, 256)}...(${xff.length - 256} more)`,
  )
  assert.ok(headerBytes(res) < 8192, String(headerBytes(res)))
  const origin = `https://${'a'.repeat(14_000)}.example.com`
  const cors = await app.request('/v1/ping', { headers: { Origin: origin } })
  assert.equal(cors.headers.get('access-control-allow-origin'), null)
  assert.ok(headerBytes(cors) < 8192)
  const ok = await app.request('/v1/ping', { headers: { Origin: 'https://shop.example.com' } })
  assert.equal(ok.headers.get('access-control-allow-origin'), 'https://shop.example.com')
})

/** A body of `total` bytes made on demand; `pulled()` says how much was read. */
function lazyBody(total: number, chunk = 1 << 20) {
  let sent = 0
  const stream = new ReadableStream<Uint8Array>({
    pull(ctrl) {
      if (sent >= total) return ctrl.close()
      sent += chunk
      ctrl.enqueue(new Uint8Array(chunk).fill(0x20))
    },
  })
  return { stream, pulled: () => sent }
}

test('/v1/pipeline/debug and /v1/query/raw stop reading a body at the limit', async () => {
  const { app } = testApp({ upstream: 'http://127.0.0.1:9?token=tkn_x' })
  for (const [path, limit] of [
    ['/v1/pipeline/debug', 64 << 20],
    ['/v1/query/raw', 64 << 20],
    ['/v1/lasterror', 1 << 20],
  ] as const) {
    const body = lazyBody(400 << 20)
    const res = await app.request(path, {
      method: 'POST',
      body: body.stream,
      duplex: 'half',
    } as RequestInit)
    assert.equal(res.status, 413, path)
    assert.deepEqual(await res.json(), {
      error_code: 'agent.bodyTooLarge',
      message: `request body exceeds the limit of ${limit} bytes`,
    })
    assert.ok(body.pulled() <= limit + (2 << 20), `${path}: read ${body.pulled()} bytes`)
  }
})
