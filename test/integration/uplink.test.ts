/**
 * The agent's way to its upstreams, over real sockets: uploads and forwarded calls through a
 * forward/CONNECT proxy the test runs, https upstreams with a CA made for the test (and
 * `tls_insecure` for a self-signed one), clock correction from a skewed `/v1/ntp`, the
 * sinker's `X-Global-Tags`, and `[io.filters]` counted as drops.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import type https from 'node:https'
import { after, test } from 'node:test'
import { startAgent, type AgentProcess } from '../helpers/agent-process.js'
import { ProxyServer } from '../helpers/proxy-server.js'
import { SinkServer, waitFor } from '../helpers/sink-server.js'
import { makeCerts } from '../helpers/test-ca.js'

const certs = makeCerts()
const cleanup: (() => Promise<unknown>)[] = []
after(async () => {
  for (const c of cleanup.reverse()) await c()
  fs.rmSync(certs.dir, { recursive: true, force: true })
})

async function sink(tls?: https.ServerOptions): Promise<[SinkServer, string]> {
  const s = new SinkServer()
  const url = await s.start(0, tls)
  cleanup.push(() => s.stop())
  return [s, url]
}

async function proxy(): Promise<[ProxyServer, string]> {
  const p = new ProxyServer()
  const url = await p.start()
  cleanup.push(() => p.stop())
  return [p, url]
}

async function agent(env: Record<string, string>): Promise<AgentProcess> {
  const a = await startAgent({
    ENV_DATAWAY_RETRY_INITIAL: '50ms',
    ENV_DATAWAY_RETRY_MAX: '200ms',
    ...env,
  })
  cleanup.push(() => a.stop())
  return a
}

async function write(a: AgentProcess, body: string, category = 'metric'): Promise<void> {
  const res = await fetch(`${a.url}/v1/write/${category}`, { method: 'POST', body })
  assert.equal(res.status, 200, await res.text())
}

const lines = (n: number) => Array.from({ length: n }, (_, i) => `m,host=a n=${i}i`).join('\n')
const metrics = async (a: AgentProcess) => (await fetch(`${a.url}/metrics`)).text()

test('an http upstream through http_proxy: uploads, /v1/ntp and forwarded calls in forward form', async () => {
  const [s, url] = await sink()
  const [p, proxyUrl] = await proxy()
  const a = await agent({ ENV_DATAWAY: url, ENV_DATAWAY_HTTP_PROXY: proxyUrl })
  await write(a, lines(10))
  await waitFor(() => s.points().length === 10, 15_000, 'delivery through the proxy')
  const res = await fetch(`${a.url}/v1/env_variable?app_id=web`)
  assert.equal(res.status, 200)
  const origin = new URL(url).origin
  const token = 'token=tkn_0123456789abcdef0123456789abcdef'
  assert.deepEqual(p.tunnels, [])
  assert.ok(p.forwarded.includes(`GET ${origin}/v1/ntp?${token}`), p.forwarded.join('\n'))
  assert.ok(p.forwarded.includes(`POST ${origin}/v1/write/metric?${token}`), p.forwarded.join('\n'))
  assert.ok(p.forwarded.includes(`GET ${origin}/v1/env_variable?${token}&app_id=web&scope=rum`))
  const uploads = s.received.filter((r) => r.category === 'metric').length
  assert.equal(p.forwarded.filter((f) => f.startsWith('POST ')).length, uploads)
})

test('an https upstream with a private CA, through a CONNECT tunnel; without the CA nothing is sent', async () => {
  const [s, url] = await sink(certs.server)
  const [p, proxyUrl] = await proxy()
  const a = await agent({
    ENV_DATAWAY: url,
    ENV_DATAWAY_HTTP_PROXY: proxyUrl,
    ENV_DATAWAY_TLS_CA_FILE: certs.caFile,
  })
  await write(a, lines(25))
  await waitFor(() => s.points().length === 25, 15_000, 'delivery over TLS')
  assert.ok(p.tunnels.length >= 1)
  assert.deepEqual(new Set(p.tunnels), new Set([new URL(url).host]))
  assert.deepEqual(p.forwarded, [])
  const untrusting = await agent({ ENV_DATAWAY: url })
  await write(untrusting, lines(5))
  await waitFor(
    async () => /outcome="network"\} [1-9]/.test(await metrics(untrusting)),
    15_000,
    'a refused certificate',
  )
  assert.equal(s.points().length, 25)
})

test('a client certificate for an upstream that asks for one', async () => {
  const ca = fs.readFileSync(certs.caFile)
  const [s, url] = await sink({ ...certs.server, ca, requestCert: true, rejectUnauthorized: true })
  const tlsEnv = { ENV_DATAWAY: url, ENV_DATAWAY_TLS_CA_FILE: certs.caFile }
  const a = await agent({
    ...tlsEnv,
    ENV_DATAWAY_TLS_CERT_FILE: certs.client.certFile,
    ENV_DATAWAY_TLS_KEY_FILE: certs.client.keyFile,
  })
  await write(a, lines(6))
  await waitFor(() => s.points().length === 6, 15_000, 'delivery with a client certificate')
  const anonymous = await agent(tlsEnv)
  await write(anonymous, lines(2))
  await waitFor(
    async () => /outcome="network"\} [1-9]/.test(await metrics(anonymous)),
    15_000,
    'a refused client',
  )
  assert.equal(s.points().length, 6)
})

test('tls_insecure uploads to a self-signed upstream', async () => {
  const [s, url] = await sink(certs.selfSigned)
  const a = await agent({ ENV_DATAWAY: url, ENV_DATAWAY_TLS_INSECURE: 'true' })
  await write(a, lines(3))
  await waitFor(() => s.points().length === 3, 15_000, 'delivery to a self-signed upstream')
})

test('use_env_proxy takes HTTP_PROXY from the environment, and NO_PROXY bypasses it', async () => {
  const [s, url] = await sink()
  const [p, proxyUrl] = await proxy()
  const env = {
    ENV_DATAWAY: url,
    ENV_DATAWAY_USE_ENV_PROXY: 'true',
    HTTP_PROXY: proxyUrl,
    http_proxy: proxyUrl,
    HTTPS_PROXY: '',
    https_proxy: '',
  }
  const a = await agent({ ...env, NO_PROXY: '', no_proxy: '' })
  await write(a, lines(4))
  await waitFor(() => s.points().length === 4, 15_000, 'delivery through the env proxy')
  const through = p.forwarded.length
  assert.ok(through >= 2, p.forwarded.join('\n'))
  const bypass = await agent({ ...env, NO_PROXY: '127.0.0.1', no_proxy: '127.0.0.1' })
  await write(bypass, lines(4))
  await waitFor(() => s.points().length === 8, 15_000, 'delivery around the proxy')
  assert.equal(p.forwarded.length, through)
})

test("points are stamped by the upstream's clock when /v1/ntp is off by more than diff", async () => {
  const [s, url] = await sink()
  s.ntpSkewSeconds = 3600
  const a = await agent({ ENV_DATAWAY: url, ENV_IO_AUTO_TIMESTAMP_CORRECTION: 'true' })
  await waitFor(
    async () => /ferry_dataway_ntp_offset_seconds (3599|3600|3601)\n/.test(await metrics(a)),
    15_000,
    'the ntp offset',
  )
  const before = BigInt(Date.now()) * 1_000_000n
  const old = before - 86_400_000_000_000n
  await write(a, `now v=1i\nold v=2i ${old}`)
  await waitFor(() => s.points().length === 2, 15_000, 'delivery')
  const hour = 3_600_000_000_000n
  const [now, corrected] = ['now', 'old'].map((n) => s.points().find((p) => p.name === n)!)
  for (const p of [now, corrected]) {
    assert.ok(
      p.time! >= before + hour - 2_000_000_000n && p.time! <= before + hour + 60_000_000_000n,
      String(p.time),
    )
  }
  assert.deepEqual(corrected.fields.find((f) => f.key === '__orig_time')?.value, old)
  assert.match(await metrics(a), /ferry_points_retimed_total\{category="metric"\} 1\b/)
})

test('the sinker sends one body per X-Global-Tags value', async () => {
  const [s, url] = await sink()
  const a = await agent({
    ENV_DATAWAY: url,
    ENV_HOSTNAME: 'h1',
    ENV_GLOBAL_HOST_TAGS: 'env=prod',
    ENV_DATAWAY_ENABLE_SINKER: 'true',
    ENV_SINKER_GLOBAL_CUSTOMER_KEYS: 'region,category',
  })
  await write(a, 'm,region=eu n=0i\nm,region=us n=1i\nm,region=eu,env=dev n=2i\nm n=3i')
  await waitFor(() => s.points().length === 4, 15_000, 'delivery')
  const got = s.received
    .map((r) => [r.headers['x-global-tags'], r.points.map((p) => p.fields[0].value)])
    .sort((x, y) => String(x[0]).localeCompare(String(y[0])))
  assert.deepEqual(got, [
    ['category=metric,env=dev,host=h1,region=eu', [2]],
    ['category=metric,env=prod,host=h1', [3]],
    ['category=metric,env=prod,host=h1,region=eu', [0]],
    ['category=metric,env=prod,host=h1,region=us', [1]],
  ])
  for (const r of s.received) assert.match(r.pkgId, /^fy1_[0-9a-f]{24}_\d+_\d+_s[0-9a-f]{16}$/)
})

test('[io.filters] drop matching points after the pipeline, counted as drops with their reason', async () => {
  const [s, url] = await sink()
  const a = await agent({
    ENV_DATAWAY: url,
    ENV_IO_FILTERS: JSON.stringify({ logging: ["{ source = 'nginx' and status in ['debug'] }"] }),
  })
  await write(
    a,
    'nginx,status=debug message="a"\nnginx,status=info message="b"\napp,status=debug message="c"',
    'logging',
  )
  await write(a, 'nginx,status=debug v=1i')
  await waitFor(() => s.points().length === 3, 15_000, 'delivery')
  assert.deepEqual(
    s
      .points()
      .map((p) => `${s.received.find((r) => r.points.includes(p))!.category}:${p.name}`)
      .sort(),
    ['logging:app', 'logging:nginx', 'metric:nginx'],
  )
  assert.match(
    await metrics(a),
    /ferry_dropped_points_total\{category="logging",reason="filtered"\} 1\b/,
  )
})
