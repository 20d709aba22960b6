/** POST /v1/dialtesting/debug: HTTP tasks against loopback servers, checks, rules, refusals. */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { NetGuard } from '../../../src/dialtest/guard.js'
import { testApp } from '../../helpers/app.js'
import { startDialServers, type DialServers } from '../../helpers/dial-servers.js'

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers, read by path
type Json = Record<string, any>

let s: DialServers
before(async () => (s = await startDialServers()))
after(() => s.close())

const ON = { ENV_INPUT_DIALTESTING_ENABLE_DEBUG_API: 'true' }

async function debug(body: unknown, env: Record<string, string> = {}) {
  const { app } = testApp({ env: { ...ON, ...env } })
  const res = await app.request('/v1/dialtesting/debug', {
    method: 'POST',
    body: JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as Json }
}

const http = (path: string, extra: Record<string, unknown> = {}) => ({
  task_type: 'http',
  task: {
    name: 't',
    url: `http://127.0.0.1:${s.http}${path}`,
    method: 'GET',
    success_when: [{ status_code: [{ is: '200' }] }],
    ...extra,
  },
})

test('the route is absent unless enabled', async () => {
  const { app } = testApp()
  const res = await app.request('/v1/dialtesting/debug', { method: 'POST', body: '{}' })
  assert.equal(res.status, 404)
})

test('an HTTP task succeeds with timings, tags and the spec shape', async () => {
  const { status, body } = await debug(http('/ok'))
  assert.equal(status, 200)
  const c = body.content
  assert.deepEqual(Object.keys(c).sort(), ['cost', 'error_msg', 'fields', 'status', 'traceroute'])
  assert.equal(c.status, 'success')
  assert.equal(c.error_msg, '')
  assert.deepEqual(c.traceroute, [])
  const f = c.fields
  assert.equal(f.status, 'OK')
  assert.equal(f.success, 1)
  assert.equal(f.status_code, 200)
  assert.equal(f.status_code_string, '200 OK')
  assert.equal(f.status_code_class, '2xx')
  assert.equal(f.dest_ip, '127.0.0.1')
  assert.equal(f.proto, 'HTTP/1.1')
  assert.equal(f.method, 'GET')
  assert.equal(f.response_body_size, 11)
  assert.equal(f.config_vars, '[]')
  assert.equal(
    f.task,
    JSON.stringify({
      url: `http://127.0.0.1:${s.http}/ok`,
      method: 'GET',
      success_when: [{ status_code: [{ is: '200' }] }],
    }),
  )
  for (const k of [
    'response_dns',
    'response_connection',
    'response_ssl',
    'response_ttfb',
    'response_download',
    'response_time',
  ])
    assert.equal(typeof f[k], 'number', k)
  assert.ok(f.response_connection > 0 && f.response_time >= f.response_ttfb)
  assert.equal(JSON.parse(f.message).status, 'OK')
})

test('each condition kind fails with the reference text', async () => {
  const cases: [unknown, string][] = [
    [{ status_code: [{ is: '201' }] }, "HTTP status: expect to be `201', got `200'"],
    [{ status_code: [{ is_not: '200' }] }, 'HTTP status: shoud not be 200'],
    [
      { header: { 'X-Test': [{ is: 'no' }] } },
      "HTTP header `X-Test': expect to be `no', got `yes'",
    ],
    [{ body: [{ contains: 'bye' }] }, "response body: do not contains `bye', got `hello ferry'"],
    [
      { body: [{ not_contains: 'ferry' }] },
      "response body: should not contains `ferry', got `hello ferry'",
    ],
    [{ body: [{ match_regex: '^bye' }] }, "response body: regex `^bye` match `hello ferry' failed"],
    [
      { body: [{ not_match_regex: 'h.llo' }] },
      "response body: regex `h.llo' should not match `hello ferry'",
    ],
  ]
  for (const [cond, reason] of cases) {
    const { body } = await debug(http('/ok', { success_when: [cond] }))
    assert.equal(body.content.status, 'fail')
    assert.equal(body.content.error_msg, reason)
    assert.equal(body.content.fields.fail_reason, reason)
    assert.equal(body.content.fields.success, -1)
    const m = JSON.parse(body.content.fields.message)
    assert.equal(m.response_body, 'hello ferry')
    assert.deepEqual(m.response_header['X-Test'], ['yes'])
  }
})

test('response time fails on a slow answer; a timeout is a request error', async () => {
  const slow = await debug(http('/slow', { success_when: [{ response_time: '100ms' }] }))
  assert.match(slow.body.content.error_msg, /^HTTP response time\([\d.]+ms\) larger than 100ms$/)
  const t = await debug(http('/slow', { advance_options: { request_timeout: '50ms' } }))
  assert.equal(
    t.body.content.error_msg,
    `GET "http://127.0.0.1:${s.http}/slow": context deadline exceeded`,
  )
})

test('and/or logic', async () => {
  const sw = [{ status_code: [{ is: '200' }], body: [{ contains: 'nope' }] }]
  const and = await debug(http('/ok', { success_when: sw }))
  assert.equal(and.body.content.status, 'fail')
  const or = await debug(http('/ok', { success_when: sw, success_when_logic: 'or' }))
  assert.equal(or.body.content.status, 'success')
  assert.equal(or.body.content.fields.status, 'OK')
})

test('redirects are followed only when asked', async () => {
  const no = await debug(http('/redirect'))
  assert.equal(no.body.content.error_msg, "HTTP status: expect to be `200', got `302'")
  const yes = await debug(
    http('/redirect', { advance_options: { request_options: { follow_redirect: true } } }),
  )
  assert.equal(yes.body.content.status, 'success')
})

test('headers, cookies, basic auth and bodies reach the server', async () => {
  const form = {
    body_type: 'multipart/form-data',
    form: { a: '1' },
    files: [
      {
        name: 'f',
        content: Buffer.from('FILE').toString('base64'),
        encoding: 'base64',
        original_file_name: 'x.txt',
        type: 'text/plain',
      },
    ],
  }
  const { body } = await debug(
    http('/echo', {
      method: 'POST',
      post_script: 'vars["ua"] = load_json(response["body"])["headers"]["user-agent"]',
      advance_options: {
        request_options: {
          headers: { 'X-A': 'b' },
          cookies: 'c=d',
          auth: { username: 'u', password: 'p' },
        },
        request_body: form,
      },
      success_when: [
        {
          body: [
            { contains: '"x-a":"b"' },
            { contains: '"cookie":"c=d"' },
            { contains: '"authorization":"Basic dTpw"' },
            { contains: 'filename=\\"x.txt\\"' },
            { contains: 'FILE' },
          ],
        },
      ],
    }),
  )
  assert.equal(body.content.error_msg, '')
  assert.match(JSON.parse(body.content.fields.post_script_variables).ua, /^ferry-/)
})

test('post_script result fails the task', async () => {
  const { body } = await debug(
    http('/ok', {
      success_when: [],
      post_script:
        'if response["status_code"] == 200 { result["is_failed"] = true\nresult["error_message"] = "scripted" }',
    }),
  )
  assert.equal(body.content.error_msg, 'scripted')
})

test('TLS with a self-signed certificate: refused, then accepted when told to ignore it', async () => {
  const url = `https://127.0.0.1:${s.https}/ok`
  const bad = await debug({
    task_type: 'http',
    task: { url, success_when: [{ status_code: [{ is: '200' }] }] },
  })
  assert.equal(bad.body.content.error_msg, 'self-signed certificate')
  const ok = await debug({
    task_type: 'http',
    task: {
      url,
      success_when: [{ status_code: [{ is: '200' }] }],
      advance_options: { certificate: { ignore_server_certificate_error: true } },
    },
  })
  assert.equal(ok.body.content.status, 'success')
  assert.ok(ok.body.content.fields.response_ssl > 0)
})

test('templates: variables, functions, undefined names', async () => {
  const task = {
    url: `http://127.0.0.1:${s.http}/{{p}}?t={{timestamp "ms"}}&q={{urlencode "a b"}}`,
    config_vars: [{ name: 'p', value: 'ok' }],
    success_when: [{ status_code: [{ is: '200' }] }],
  }
  const ok = await debug({ task_type: 'HTTP', task })
  assert.equal(ok.body.content.status, 'success')
  const bad = await debug({
    task_type: 'http',
    task: { ...task, url: 'http://127.0.0.1/{{nope}}' },
  })
  assert.deepEqual(bad.body, {
    error_code: 'agent.invalidRequest',
    message: "render template error: parse template error: variable 'nope' not defined",
  })
  const name = await debug({
    task_type: 'http',
    task: { ...task, config_vars: [{ name: '1x', value: '' }] },
  })
  assert.equal(name.body.message, 'task check failed: invalid variable name 1x')
})

test('400 answers', async () => {
  assert.deepEqual((await debug({ task_type: 'ftp', task: {} })).body, {
    error_code: 'agent.invalidClass',
    message: 'unknown task type:FTP',
  })
  assert.deepEqual((await debug(http('/ok', { cur_status: 'stop' }))).body, {
    error_code: 'agent.invalidRequest',
    message: 'the task status is stop',
  })
  assert.equal(
    (await debug(http('/ok', { status: 'stop' }))).body.message,
    'the task status is stop',
  )
  assert.equal(
    (await debug(http('/ok', { success_when: [] }))).body.message,
    'task check failed: no any check rule',
  )
  const bt = http('/ok', { advance_options: { request_body: { body_type: 'x/y' } } })
  assert.equal((await debug(bt)).body.message, "task check failed: invalid body type: `x/y'")
})

test('internal targets are refused after DNS and on redirect hops', async () => {
  const internal = { ENV_INPUT_DIALTESTING_DISABLE_INTERNAL_NETWORK_TASK: 'true' }
  const name = await debug(
    {
      task_type: 'http',
      task: {
        url: `http://localhost:${s.http}/ok`,
        success_when: [{ status_code: [{ is: '200' }] }],
      },
    },
    internal,
  )
  assert.deepEqual(name.body, {
    error_code: 'agent.invalidRequest',
    message: 'dest host [localhost] is not allowed to be tested',
  })
  const cidr = { ENV_INPUT_DIALTESTING_DISABLED_INTERNAL_NETWORK_CIDR_LIST: '["127.0.0.2/32"]' }
  const hop = await debug(
    http('/redirect-private', { advance_options: { request_options: { follow_redirect: true } } }),
    cidr,
  )
  assert.equal(hop.body.content.error_msg, 'dest host [127.0.0.2] is not allowed to be tested')
})

test('the internal-network guard refuses private, loopback and link-local addresses', () => {
  const guard = new NetGuard({ internal: true, cidrs: [] })
  for (const ip of [
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '127.0.0.1',
    '169.254.1.1',
    '::1',
    'fe80::1',
  ])
    assert.equal(guard.allowed(ip), false, ip)
  assert.equal(guard.allowed('8.8.8.8'), true)
})
