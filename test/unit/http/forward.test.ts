/** Agent routes answered by the first upstream: query/raw and object labels (spec 4.2, 4.3, 4.16). */
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import { testApp } from '../../helpers/app.js'

let server: http.Server
let url = ''
const seen: { path: string; body: string }[] = []

before(async () => {
  // The far side: answers 400 to queries mentioning "bad", echoes otherwise.
  server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (d) => (body += d))
    req.on('end', () => {
      seen.push({ path: req.url ?? '', body })
      const status = body.includes('bad') ? 400 : 200
      res.writeHead(status, { 'Content-Type': 'application/json' })
      res.end(
        status === 200
          ? '{"content":[{"series":[]}]}'
          : '{"errorCode":"QueryInvalid","message":"no"}',
      )
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}?token=tkn_0123456789abcdef0123456789abcdef`
})
after(() => server.close())

test('query/raw: token filled in, unknown fields dropped, answer verbatim with 200', async () => {
  const { app } = testApp({ upstream: url })
  const res = await app.request('/v1/query/raw', {
    method: 'POST',
    body: '{"queries":[{"query":"M::cpu"}],"mask_visible":true}',
  })
  assert.equal(res.status, 200)
  assert.equal(await res.text(), '{"content":[{"series":[]}]}')
  assert.equal(seen.at(-1)!.path, '/v1/query/raw?token=tkn_0123456789abcdef0123456789abcdef')
  assert.deepEqual(JSON.parse(seen.at(-1)!.body), {
    token: 'tkn_0123456789abcdef0123456789abcdef',
    queries: [{ query: 'M::cpu' }],
    echo_explain: false,
  })
  const refused = await app.request('/v1/query/raw', {
    method: 'POST',
    body: '{"queries":[{"query":"bad"}]}',
  })
  assert.equal(refused.status, 200)
  assert.equal(await refused.text(), '{"errorCode":"QueryInvalid","message":"no"}')
})

test('query/raw: bad JSON 400, no upstream 500, unreachable upstream 500', async () => {
  const { app } = testApp({ upstream: url })
  const bad = await app.request('/v1/query/raw', { method: 'POST', body: '{"queries":' })
  assert.equal(bad.status, 400)
  assert.equal(((await bad.json()) as { error_code: string }).error_code, 'agent.invalidJson')
  const none = await testApp().app.request('/v1/query/raw', { method: 'POST', body: '{}' })
  assert.equal(none.status, 500)
  assert.deepEqual(await none.json(), {
    error_code: 'agent.noUpstream',
    message: 'no upstream is configured ([dataway] urls)',
  })
  const down = testApp({
    upstream: 'http://127.0.0.1:1?token=tkn_0123456789abcdef0123456789abcdef',
  })
  const res = await down.app.request('/v1/query/raw', { method: 'POST', body: '{}' })
  assert.equal(res.status, 500)
  assert.equal(((await res.json()) as { error_code: string }).error_code, 'agent.forwardFailed')
})

test('object labels: success verbatim, refusal 500 with the upstream errorCode', async () => {
  const { app } = testApp({ upstream: url })
  const ok = await app.request('/v1/object/labels', {
    method: 'POST',
    body: '{"object_class":"HOST"}',
  })
  assert.equal(ok.status, 200)
  assert.equal(seen.at(-1)!.path, '/v1/object/labels?token=tkn_0123456789abcdef0123456789abcdef')
  const refused = await app.request('/v1/object/labels', { method: 'DELETE', body: '{"bad":1}' })
  assert.equal(refused.status, 500)
  assert.deepEqual(await refused.json(), {
    errorCode: 'QueryInvalid',
    message: 'upstream answered 400',
  })
})
