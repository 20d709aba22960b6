/**
 * Management for real: tag changes persisted across a restart, SIGHUP reload under a stream of
 * writes, loopback rules on real sockets (a non-loopback address of this machine, a Unix
 * socket), and HTTPS.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { startAgent } from '../helpers/agent-process.js'
import { addedLines } from '../helpers/lines.js'
import { SinkServer, waitFor } from '../helpers/sink-server.js'

const SHIPPED = fs.readFileSync(new URL('../../conf.d/ferry.conf', import.meta.url), 'utf8')
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-mgmt-'))

function tagsOf(sink: SinkServer, measurement: string) {
  return sink
    .points()
    .filter((p) => p.name === measurement)
    .map((p) => Object.fromEntries(p.tags.map((t) => [t.key, t.value])))
}

test('tag changes survive a restart; the rest of the config file stays byte-identical', async () => {
  const sink = new SinkServer()
  const env = { ENV_DATAWAY: await sink.start(), ENV_HOSTNAME: 'box1' }
  const dir = tmp()
  let agent = await startAgent(env, SHIPPED, dir)
  try {
    const r = await fetch(`${agent.url}/v1/global/host/tags?dc=west&rack=r7`, { method: 'POST' })
    assert.equal(r.status, 200)
    assert.equal(((await r.json()) as { persisted: boolean }).persisted, true)
    assert.equal(await agent.stop(), 0)
    const file = fs.readFileSync(path.join(dir, 'ferry.conf'), 'utf8')
    assert.deepEqual(addedLines(SHIPPED, file), ['dc = "west"', 'rack = "r7"'])
    agent = await startAgent(env, undefined, dir)
    const get = await fetch(`${agent.url}/v1/global/host/tags`)
    assert.deepEqual(await get.json(), {
      'host-tags': { dc: 'west', rack: 'r7', host: 'box1' },
    })
    await fetch(`${agent.url}/v1/write/metric`, { method: 'POST', body: 'after v=1i' })
    await waitFor(() => tagsOf(sink, 'after').length === 1)
    assert.deepEqual(tagsOf(sink, 'after'), [{ dc: 'west', rack: 'r7', host: 'box1' }])
  } finally {
    await agent.stop()
    await sink.stop()
  }
})

test('SIGHUP reloads live keys while writes keep being answered and delivered', async () => {
  const sink = new SinkServer()
  const dir = tmp()
  const env = { ENV_DATAWAY: await sink.start() }
  const agent = await startAgent(env, '[global_host_tags]\nphase = "one"\n', dir)
  try {
    let n = 0
    let stop = false
    const statuses: number[] = []
    const writer = (async () => {
      while (!stop) {
        const res = await fetch(`${agent.url}/v1/write/metric`, {
          method: 'POST',
          body: `w n=${n++}i`,
        })
        statuses.push(res.status)
      }
    })()
    const remoteMetrics = () =>
      fetch(`${agent.url}/metrics`, { headers: { 'X-Real-IP': '192.0.2.1' } }).then((r) => r.status)
    assert.equal(await remoteMetrics(), 403)
    const conf = path.join(dir, 'ferry.conf')
    fs.writeFileSync(
      conf,
      '[http_api]\npublic_apis = ["/metrics"]\n[global_host_tags]\nphase = "two"\n',
    )
    for (let i = 0; i < 3; i++) {
      agent.child.kill('SIGHUP')
      await new Promise((r) => setTimeout(r, 200))
    }
    await waitFor(() => agent.logs.some((l) => l.includes('"config_reloaded"')))
    assert.equal(await remoteMetrics(), 200)
    // Keep writing until the stream is long enough to mean something, however slow the machine.
    await waitFor(() => statuses.length > 20, 15_000, 'more than 20 writes')
    stop = true
    await writer
    assert.ok(statuses.length > 20, `only ${statuses.length} writes`)
    assert.deepEqual(new Set(statuses), new Set([200]))
    await waitFor(() => sink.values('n').length === n, 15_000, 'every write delivered')
    const phases = new Set(tagsOf(sink, 'w').map((t) => t.phase))
    assert.deepEqual(phases, new Set(['one', 'two']))
  } finally {
    await agent.stop()
    await sink.stop()
  }
})

function externalAddress(): string | undefined {
  for (const list of Object.values(os.networkInterfaces()))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address
  return undefined
}

function request(o: http.RequestOptions & { socketPath?: string }): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(o, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', reject)
    req.end()
  })
}

test('real sockets: another address of this host is remote; the Unix socket is local', async (t) => {
  const ip = externalAddress()
  const sock = path.join(tmp(), 'ferry.sock')
  const agent = await startAgent({ ENV_HTTP_LISTEN: '0.0.0.0:0', ENV_HTTP_LISTEN_SOCKET: sock })
  try {
    const port = Number(new URL(agent.url).port)
    if (!ip) t.diagnostic('no non-loopback IPv4 address here: that half is skipped')
    else {
      assert.equal(await request({ host: ip, port, path: '/v1/global/host/tags' }), 403)
      assert.equal(await request({ host: ip, port, path: '/v1/ping' }), 200)
    }
    assert.equal(await request({ host: '127.0.0.1', port, path: '/v1/global/host/tags' }), 200)
    assert.equal(await request({ socketPath: sock, path: '/v1/global/host/tags' }), 200)
    const viaProxy = {
      socketPath: sock,
      path: '/metrics',
      headers: { 'X-Forwarded-For': '1.2.3.4' },
    }
    assert.equal(await request(viaProxy), 403)
  } finally {
    await agent.stop()
  }
  assert.equal(fs.existsSync(sock), false)
})

test('HTTPS with [http_api.tls]', async () => {
  const dir = tmp()
  const cert = path.join(dir, 'cert.pem')
  const key = path.join(dir, 'key.pem')
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  )
  const agent = await startAgent({ ENV_HTTP_TLS_CERT: cert, ENV_HTTP_TLS_PRIVKEY: key })
  try {
    assert.ok(agent.logs.some((l) => l.includes('"tls":true')))
    const port = Number(new URL(agent.url).port)
    const body = await new Promise<string>((resolve, reject) => {
      https
        .get({ host: '127.0.0.1', port, path: '/v1/ping', ca: fs.readFileSync(cert) }, (res) => {
          let s = ''
          res.on('data', (d) => (s += d))
          res.on('end', () => resolve(s))
        })
        .on('error', reject)
    })
    assert.equal((JSON.parse(body) as { content: { host: string } }).content.host, os.hostname())
    await assert.rejects(fetch(`${agent.url}/v1/ping`)) // plain HTTP is not served
  } finally {
    await agent.stop()
  }
})
