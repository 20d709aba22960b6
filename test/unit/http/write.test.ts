/** The write route's parameters, limits and answers, through app.request() (no socket). */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import zlib from 'node:zlib'
import { CATEGORY_NAMES } from '../../../src/shared/category.js'
import { testApp } from '../../helpers/app.js'
import { payloadShapes } from '../../helpers/points.js'

async function post(
  url: string,
  body: string | Uint8Array,
  headers: Record<string, string> = {},
  env?: Record<string, string>,
) {
  const t = testApp({ env, hostTags: { region: 'eu' } })
  const res = await t.app.request(url, { method: 'POST', body, headers })
  const text = await res.text()
  return { res, text, json: () => JSON.parse(text), ...t }
}

test('all ten categories are accepted; others get agent.invalidCategory', async () => {
  assert.equal(CATEGORY_NAMES.length, 10)
  for (const cat of CATEGORY_NAMES) {
    const { res, text } = await post(`/v1/write/${cat}`, 'm f=1i')
    assert.equal(res.status, 200, `${cat}: ${text}`)
    assert.equal(text, '')
    assert.equal(res.headers.get('x-agent'), '0.0.0-test/my-testing')
  }
  const bad = await post('/v1/write/metrics', 'm f=1i')
  assert.equal(bad.res.status, 400)
  assert.deepEqual(bad.json(), {
    error_code: 'agent.invalidCategory',
    message: 'invalid URL "/v1/write/metrics"',
  })
})

test('empty body, no points, strict', async () => {
  assert.deepEqual((await post('/v1/write/metric', '')).json(), { error_code: 'agent.emptyBody' })
  const none = await post('/v1/write/metric', '# just a comment\n\n')
  assert.equal(none.res.status, 400)
  assert.equal(none.json().error_code, 'agent.noPoints')
  const strict = await post('/v1/write/object?strict', 'host_obj,a.b=1 f=1i')
  assert.equal(strict.res.status, 400)
  assert.deepEqual(strict.json(), {
    error_code: 'agent.pointGotWarning',
    message: 'dot_in_key: tag key "a.b" renamed to "a_b"',
  })
})

test('bool parameters count by presence; dry accepts without buffering', async () => {
  for (const q of ['dry', 'dry=', 'dry=false', 'dry=0']) {
    const { res, buffer } = await post(`/v1/write/metric?${q}`, 'm f=1i')
    assert.equal(res.status, 200)
    assert.equal(buffer.stats().batches, 0, q)
  }
  const { buffer } = await post('/v1/write/metric', 'm f=1i')
  assert.equal(buffer.stats().batches, 1)
})

test('echo formats and the deprecated echo parameters', async () => {
  const body = 'm,t=a f=1i,s="x",b=true 1700000000000000000'
  assert.equal(
    (await post('/v1/write/logging?echo=lp', body)).text,
    'm,t=a b=true,f=1i,s="x",status="unknown" 1700000000000000000',
  )
  assert.equal(
    (await post('/v1/write/network?echo_line_proto', body)).text,
    'm,t=a b=true,f=1i,s="x" 1700000000000000000',
  )
  assert.equal(
    (await post('/v1/write/network?echo_json=1', body)).text,
    '[{"measurement":"m","tags":{"t":"a"},"fields":{"b":true,"f":1,"s":"x"},"time":1700000000000000000}]',
  )
  assert.equal(
    (await post('/v1/write/metric?echo=pbjson', body)).text,
    '[{"name":"m","fields":[{"key":"b","b":true},{"key":"f","i":"1"},{"key":"t","s":"a","is_tag":true}],"time":"1700000000000000000","warns":[{"type":"invalid_field_value_type","message":"field s: string values are not allowed here, dropped"}]}]',
  )
  const bad = await post('/v1/write/metric?echo=xml', body)
  assert.equal(bad.res.status, 400)
  assert.equal(bad.json().error_code, 'agent.invalidEcho')
})

test('precision: units, aliases, guess, and a clear error for nonsense', async () => {
  const echo = async (q: string, ts: string) =>
    (await post(`/v1/write/metric?echo=lp&${q}`, `m f=1i ${ts}`)).text
  assert.equal(await echo('precision=s', '1700000000'), 'm f=1i 1700000000000000000')
  assert.equal(await echo('precision=ms', '1700000000000'), 'm f=1i 1700000000000000000')
  assert.equal(await echo('precision=us', '1700000000000000'), 'm f=1i 1700000000000000000')
  assert.equal(await echo('precision=h', '472222'), 'm f=1i 1699999200000000000')
  assert.equal(await echo('x', '1700000000000'), 'm f=1i 1700000000000000000')
  const bad = await post('/v1/write/metric?precision=fortnight', 'm f=1i 1')
  assert.equal(bad.res.status, 400)
  assert.equal(bad.json().error_code, 'agent.invalidPrecision')
  const now = BigInt(Date.now()) * 1_000_000n
  const t = BigInt((await echo('precision=s', '')).split(' ')[2])
  assert.ok(t >= now && t < now + 5_000_000_000n, 'no timestamp: receive time, not scaled')
})

test('storage_index is validated', async () => {
  assert.equal(
    (await post('/v1/write/logging?storage_index=app_logs1', 'l message="x"')).res.status,
    200,
  )
  for (const bad of ['1logs', 'Logs', 'a-b']) {
    const r = await post(`/v1/write/logging?storage_index=${bad}`, 'l message="x"')
    assert.equal(r.res.status, 400)
    assert.equal(r.json().error_code, 'agent.invalidStorageIndex')
  }
})

test('global host tags are added without overriding; ignore and election parameters', async () => {
  const tagsOf = async (q: string, body = 'm,region=mine f=1i') =>
    payloadShapes((await post(`/v1/write/metric?${q}`, body)).buffer.take()[0].payload)[0].tags
  assert.deepEqual(await tagsOf(''), { region: 'mine', host: 'my-testing' })
  assert.deepEqual(await tagsOf('', 'm f=1i'), { region: 'eu', host: 'my-testing' })
  assert.deepEqual(await tagsOf('ignore_global_host_tags'), { region: 'mine' })
  // Election disabled: the election tags are the host tags; election beats ignore.
  assert.deepEqual(await tagsOf('global_election_tags&ignore_global_host_tags', 'm f=1i'), {
    region: 'eu',
    host: 'my-testing',
  })
})

test('compressed bodies, corrupt bodies and size limits', async () => {
  const gz = zlib.gzipSync('m f=1i')
  assert.equal((await post('/v1/write/metric', gz, { 'Content-Encoding': 'gzip' })).res.status, 200)
  assert.equal(
    (await post('/v1/write/metric?encoding=gzip', gz, { 'Content-Encoding': 'br' })).res.status,
    200,
  )
  const corrupt = await post('/v1/write/metric', Buffer.from('not gzip at all'), {
    'Content-Encoding': 'gzip',
  })
  assert.equal(corrupt.res.status, 400)
  assert.equal(corrupt.json().error_code, 'agent.decodeBodyFailed')
  const truncated = await post(
    '/v1/write/metric?encoding=zstd',
    Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 1]),
  )
  assert.equal(truncated.json().error_code, 'agent.decodeBodyFailed')
  // A bomb: 4 MiB of zeros in a few KB; the limit holds while decompressing.
  const bomb = zlib.gzipSync(Buffer.alloc(4 * 1024 * 1024))
  const env = { ENV_HTTP_MAX_BODY_SIZE: '1MiB' }
  const r = await post('/v1/write/metric', bomb, { 'Content-Encoding': 'gzip' }, env)
  assert.equal(r.res.status, 413)
  assert.deepEqual(r.json(), {
    error_code: 'agent.bodyTooLarge',
    message: 'decompressed body exceeds the limit of 1048576 bytes',
  })
  const big = await post('/v1/write/metric', Buffer.alloc(2 * 1024 * 1024, 'a'), {}, env)
  assert.equal(big.res.status, 413)
  assert.equal(big.json().message, 'request body exceeds the limit of 1048576 bytes')
})

test('ping, ntp, unknown routes', async () => {
  const { app } = testApp()
  const ping = (await (await app.request('/v1/ping')).json()) as { content: Record<string, string> }
  assert.deepEqual(Object.keys(ping.content), [
    'version',
    'uptime',
    'host',
    'commit',
    'buffer_id',
    'health',
  ])
  assert.deepEqual(ping.content.health, { status: 'ok', reasons: [] })
  assert.match(ping.content.buffer_id, /^[0-9a-f]{24}$/)
  assert.equal(ping.content.host, 'my-testing')
  // Go's Duration.String(): "0s" right after start, then "12ms", "1.5s", "1m2s", "1h0m3s".
  assert.match(ping.content.uptime, /^(\d+(\.\d+)?ms|(\d+h)?(\d+m)?\d+(\.\d+)?s)$/)
  const ntp = (await (await app.request('/v1/ntp')).json()) as { timestamp_sec: number }
  assert.ok(Math.abs(ntp.timestamp_sec - Date.now() / 1000) < 5)
  const nf = await app.request('/v1/nothing', { method: 'PUT' })
  assert.equal(nf.status, 404)
  assert.deepEqual(await nf.json(), {
    error_code: 'agent.routeNotFound',
    message: 'no route for PUT /v1/nothing',
  })
})

test('category corrections: object name, logging status and disabled keys, metric strings', async () => {
  assert.equal(
    (await post('/v1/write/object?echo=lp', 'HOST,class=x,a.b=1 f=1i 1')).text,
    'HOST,a_b=1 f=1i,name="default" 1000000000',
  )
  assert.equal(
    (await post('/v1/write/custom_object?echo=lp', 'svc f=1i 1')).text,
    'svc f=1i,name="default" 1000000000',
  )
  assert.equal(
    (await post('/v1/write/logging?echo=lp', 'nginx,source=x,date=y message="m" 1')).text,
    'nginx message="m",status="unknown" 1000000000',
  )
  assert.equal(
    (await post('/v1/write/logging?echo=lp', 'nginx,status=warn message="m" 1')).text,
    'nginx,status=warn message="m" 1000000000',
  )
  assert.equal(
    (await post('/v1/write/metric?echo=lp', 'cpu,a.b=1 f.x=1i,s="x" 1')).text,
    'cpu,a.b=1 f.x=1i 1000000000',
  )
})
