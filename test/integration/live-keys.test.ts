/**
 * Every key the schema marks live really applies on SIGHUP: a running agent gets a config
 * changing all of them at once, one SIGHUP, and each key's new value is seen at work through
 * the HTTP API or the log. The list of checks is compared with the schema's live keys, so a
 * key marked live without a check here fails this test.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { test } from 'node:test'
import { LIVE_KEYS } from '../../src/reload.js'
import { startAgent, type AgentProcess } from '../helpers/agent-process.js'
import { waitFor } from '../helpers/sink-server.js'

const BEFORE = `
[agent]
default_enabled_inputs = []
[global_host_tags]
phase = "one"
[election]
enable = true
tags = { zone = "a" }
[logging]
level = "info"
`

const AFTER = `
[agent]
default_enabled_inputs = ["mem"]
[http_api]
max_in_flight_per_client = 1
max_body_bytes_in_flight = "1KiB"
timeout = "5s"
trusted_proxies = ["127.0.0.1/32"]
public_apis = ["/metrics", "/v1/traces"]
allowed_cors_origins = ["http://ui.example"]
request_rate_limit = 1.0
request_rate_limit_burst = 10
[global_host_tags]
phase = "two"
[election]
enable = true
tags = { zone = "b" }
[logging]
level = "debug"
[rum]
app_id_white_list = ["good"]
measurements = ["view", "error"]
origin_ip_header = "X-Client-IP"
[otlp]
http_status_ok = 202
sampling_rate = 0.0
max_attributes = 1
close_resource = { "*" = ["^GET /closed$"] }
`

type Check = (agent: AgentProcess) => Promise<void>

const get = (agent: AgentProcess, p: string, headers: Record<string, string> = {}) =>
  fetch(`${agent.url}${p}`, { headers })

const rum = (agent: AgentProcess, line: string, headers: Record<string, string> = {}) =>
  fetch(`${agent.url}/v1/write/rum?echo=lp`, { method: 'POST', headers, body: line })

/**
 * A write whose body stops after one byte, from this machine: it holds the client's one slot
 * in flight until the (new) timeout answers it.
 */
function stalledWrite(agent: AgentProcess): { answered: Promise<{ status: number; ms: number }> } {
  const url = new URL(`${agent.url}/v1/write/metric`)
  const started = performance.now()
  const req = http.request(url, { method: 'POST', headers: { 'Content-Length': '100' } })
  req.write('x')
  const answered = new Promise<{ status: number; ms: number }>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume()
      resolve({ status: res.statusCode ?? 0, ms: performance.now() - started })
      req.destroy()
    })
    req.on('error', reject)
  })
  return { answered }
}

let stalled: ReturnType<typeof stalledWrite> | null = null

/** One OTLP/JSON span from a client of its own (the rate limit and in-flight slots are per client). */
async function otlpSpan(
  agent: AgentProcess,
  client: string,
  span: { name: string; error?: boolean; attributes?: number },
): Promise<Response> {
  const attributes = Array.from({ length: span.attributes ?? 0 }, (_, i) => ({
    key: `a${i}`,
    value: { stringValue: 'x' },
  }))
  const body = {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'live' } }] },
        scopeSpans: [
          {
            spans: [
              {
                traceId: '0000000000000000000000000000270f',
                spanId: '0000000000000001',
                name: span.name,
                startTimeUnixNano: String(BigInt(Date.now()) * 1_000_000n),
                endTimeUnixNano: String(BigInt(Date.now()) * 1_000_000n + 1000n),
                attributes,
                status: { code: span.error ? 2 : 1 },
              },
            ],
          },
        ],
      },
    ],
  }
  return fetch(`${agent.url}/v1/traces`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': client },
    body: JSON.stringify(body),
  })
}

/** The agent's /metrics text, asked by a client of its own. */
const metricsText = async (agent: AgentProcess, client: string) =>
  (await get(agent, '/metrics', { 'X-Forwarded-For': client })).text()

const CHECKS: Record<string, Check> = {
  'agent.default_enabled_inputs': async (agent) =>
    waitFor(
      () => agent.logs.some((l) => l.includes('"input_started"') && l.includes('"input":"mem"')),
      15_000,
      'the mem input started',
    ),
  'http_api.trusted_proxies': async (agent) => {
    const res = await get(agent, '/metrics', { 'X-Forwarded-For': '192.0.2.71' })
    assert.equal(res.headers.get('x-rate-limit-request-remote-addr'), '192.0.2.71')
  },
  'http_api.public_apis': async (agent) => {
    assert.equal((await get(agent, '/metrics', { 'X-Real-IP': '192.0.2.1' })).status, 200)
    const tags = await get(agent, '/v1/global/host/tags', { 'X-Real-IP': '192.0.2.1' })
    assert.equal(tags.status, 403)
  },
  'http_api.allowed_cors_origins': async (agent) => {
    const allowed = await get(agent, '/v1/ping', { Origin: 'http://ui.example' })
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'http://ui.example')
    const other = await get(agent, '/v1/ping', { Origin: 'http://other.example' })
    assert.equal(other.headers.get('access-control-allow-origin'), null)
  },
  'http_api.request_rate_limit': async (agent) => {
    const res = await get(agent, '/v1/ping')
    assert.equal(res.headers.get('x-rate-limit-limit'), '1.00')
  },
  'http_api.request_rate_limit_burst': async (agent) => {
    const headers = { 'X-Forwarded-For': '192.0.2.70' }
    const statuses: number[] = []
    for (let i = 0; i < 15; i++) statuses.push((await get(agent, '/metrics', headers)).status)
    const passed = statuses.filter((s) => s === 200).length
    // The burst of 10 at once (plus what 1/s refills meanwhile), then 429.
    assert.ok(passed >= 10 && passed < 15, JSON.stringify(statuses))
  },
  global_host_tags: async (agent) => {
    const body = (await (await get(agent, '/v1/global/host/tags')).json()) as {
      'host-tags': Record<string, string>
    }
    assert.equal(body['host-tags'].phase, 'two')
  },
  'election.tags': async (agent) => {
    const body = (await (await get(agent, '/v1/global/election/tags')).json()) as {
      'election-tags': Record<string, string>
    }
    assert.deepEqual(body['election-tags'], { zone: 'b' })
  },
  'logging.level': async (agent) => {
    assert.equal(
      (await fetch(`${agent.url}/v1/write/logging`, { method: 'POST', body: 'l message="x"' }))
        .status,
      200,
    )
    await waitFor(
      () => agent.logs.some((l) => l.includes('"write_accepted"')),
      10_000,
      'a debug line',
    )
  },
  'rum.app_id_white_list': async (agent) => {
    assert.equal((await rum(agent, 'view,app_id=bad loading_time=1i')).status, 403)
  },
  'rum.measurements': async (agent) => {
    assert.equal((await rum(agent, 'resource,app_id=good duration=1i')).status, 400)
  },
  'rum.origin_ip_header': async (agent) => {
    const res = await rum(agent, 'view,app_id=good loading_time=1i', { 'X-Client-IP': '8.8.8.8' })
    assert.equal(res.status, 200)
    assert.match(await res.text(), /,ip=8\.8\.8\.8[, ]/)
  },
  'otlp.http_status_ok': async (agent) => {
    const res = await otlpSpan(agent, '192.0.2.110', { name: 'GET /ok', error: true })
    assert.equal(res.status, 202, await res.text())
  },
  'otlp.sampling_rate': async (agent) => {
    // Trace id ...270f is 9999 modulo 10000: below any rate under 1, so rate 0 leaves it out.
    assert.equal((await otlpSpan(agent, '192.0.2.111', { name: 'GET /sampled' })).status, 202)
    const text = await metricsText(agent, '192.0.2.112')
    assert.match(text, /^ferry_otlp_sampled_spans_total\{signal="traces"\} 1$/m)
  },
  'otlp.max_attributes': async (agent) => {
    const res = await otlpSpan(agent, '192.0.2.113', { name: 'GET /a', error: true, attributes: 3 })
    assert.equal(res.status, 202)
    const text = await metricsText(agent, '192.0.2.114')
    assert.match(text, /^ferry_otlp_dropped_attributes_total\{signal="traces"\} 2$/m)
  },
  'otlp.close_resource': async (agent) => {
    const res = await otlpSpan(agent, '192.0.2.115', { name: 'GET /closed', error: true })
    assert.equal(res.status, 202)
    const text = await metricsText(agent, '192.0.2.116')
    assert.match(text, /^ferry_otlp_closed_spans_total\{signal="traces"\} 1$/m)
  },
  // Last: the stalled write keeps its slot until its connection is gone.
  'http_api.max_in_flight_per_client': async (agent) => {
    stalled = stalledWrite(agent)
    await new Promise((resolve) => setTimeout(resolve, 300))
    const second = await get(agent, '/v1/ping')
    assert.equal(second.status, 429)
    assert.match(await second.text(), /more than 1 requests in flight/)
  },
  'http_api.max_body_bytes_in_flight': async (agent) => {
    // The stalled write holds 100 bytes of the 1 KiB; another client's 1,000 do not fit.
    const body = 'b n=1i\n'.repeat(143)
    const res = await fetch(`${agent.url}/v1/write/metric`, {
      method: 'POST',
      headers: { 'X-Forwarded-For': '192.0.2.90' },
      body,
    })
    const answer = (await res.json()) as { error_code: string }
    assert.deepEqual([res.status, answer.error_code], [503, 'agent.agentBusy'])
  },
  'http_api.timeout': async () => {
    const r = await stalled!.answered
    assert.equal(r.status, 408)
    assert.ok(r.ms < 20_000, `answered after ${r.ms} ms`)
  },
}

test('every key marked live has a check here', () => {
  assert.deepEqual(Object.keys(CHECKS).sort(), [...LIVE_KEYS].sort())
})

test(
  'every live key takes effect on SIGHUP in a running agent',
  { timeout: 120_000 },
  async (t) => {
    const agent = await startAgent(
      {
        ENV_REQUEST_RATE_LIMIT: undefined,
        ENV_DEFAULT_ENABLED_INPUTS: undefined,
        ENV_LOG_LEVEL: undefined,
      },
      BEFORE,
    )
    try {
      // Before: RUM takes any app and measurement (and loads its IP database now, not later).
      assert.equal((await rum(agent, 'resource,app_id=bad duration=1i')).status, 200)
      assert.equal(
        agent.logs.some((l) => l.includes('"write_accepted"')),
        false,
      )
      fs.writeFileSync(path.join(agent.dataDir, 'ferry.conf'), AFTER)
      agent.child.kill('SIGHUP')
      await waitFor(() => agent.logs.some((l) => l.includes('"config_reloaded"')), 15_000, 'reload')
      for (const [key, check] of Object.entries(CHECKS)) await t.test(key, () => check(agent))
    } finally {
      await agent.stop()
    }
  },
)
