/**
 * The answers' headers with and without the rate limit (which switches the CORS middleware
 * between its two ways, access/cors.ts): each answer of the write route carries exactly the
 * headers it always did, whichever way they were set.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { testApp } from '../../helpers/app.js'

const RATE = [
  'x-rate-limit-duration: 1',
  'x-rate-limit-limit: 50.00',
  'x-rate-limit-request-remote-addr: local',
]

async function answer(rate: boolean, url: string, body: string, origin?: string) {
  const env: Record<string, string> = rate ? { ENV_REQUEST_RATE_LIMIT: '50' } : {}
  const { app } = testApp({ env })
  const headers: Record<string, string> = origin ? { Origin: origin } : {}
  const res = await app.request(url, { method: 'POST', body, headers })
  return {
    status: res.status,
    text: await res.text(),
    headers: [...res.headers].map((h) => h.join(': ')),
  }
}

const withRate = (rate: boolean, hs: string[]) => (rate ? [...hs, ...RATE].sort() : hs)

for (const rate of [false, true]) {
  test(`write answers' headers, rate limit ${rate ? 'on' : 'off'}`, async () => {
    const cors = ['access-control-allow-credentials: true', 'access-control-allow-origin: *']
    const ok = await answer(rate, '/v1/write/metric', 'm f=1i 1')
    assert.deepEqual(ok, {
      status: 200,
      text: '',
      headers: withRate(rate, [...cors, 'vary: Origin', 'x-agent: 0.0.0-test/my-testing']),
    })
    const fromPage = await answer(rate, '/v1/write/metric', 'm f=1i 1', 'http://a.b')
    assert.deepEqual(
      fromPage.headers,
      withRate(rate, [
        'access-control-allow-credentials: true',
        'access-control-allow-origin: http://a.b',
        'vary: Origin',
        'x-agent: 0.0.0-test/my-testing',
      ]),
    )
    const echo = await answer(rate, '/v1/write/metric?echo=lp', 'm f=1i 1')
    assert.equal(echo.text, 'm f=1i 1000000000')
    assert.deepEqual(
      echo.headers,
      withRate(rate, [
        ...cors,
        'content-type: text/plain;charset=UTF-8',
        'vary: Origin',
        'x-agent: 0.0.0-test/my-testing',
      ]),
    )
    const bad = await answer(rate, '/v1/write/metric', 'm f=')
    assert.equal(bad.status, 400)
    assert.deepEqual(
      bad.headers,
      withRate(rate, [
        ...cors,
        'content-type: application/json',
        'vary: Origin',
        'x-agent: 0.0.0-test/my-testing',
        'x-content-type-options: nosniff',
      ]),
    )
  })
}

test('the 429 of the rate limit carries its headers and the CORS headers', async () => {
  const { app } = testApp({ env: { ENV_REQUEST_RATE_LIMIT: '1' } })
  const post = () => app.request('/v1/write/metric', { method: 'POST', body: 'm f=1i 1' })
  assert.equal((await post()).status, 200)
  const res = await post()
  assert.equal(res.status, 429)
  assert.deepEqual(
    [...res.headers].map((h) => h.join(': ')),
    [
      'access-control-allow-credentials: true',
      'access-control-allow-origin: *',
      'content-type: application/json',
      'retry-after: 1',
      'vary: Origin',
      'x-agent: 0.0.0-test/my-testing',
      'x-content-type-options: nosniff',
      'x-rate-limit-duration: 1',
      'x-rate-limit-limit: 1.00',
      'x-rate-limit-request-remote-addr: local',
    ],
  )
})
