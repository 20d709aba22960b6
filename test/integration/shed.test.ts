/**
 * Shedding on a real port: a client flooding past its rate limit (127.0.0.2, rotating
 * X-Forwarded-For that no trusted proxy vouches for) is answered 429, first by the limiter,
 * then by the listener's gate, which holds its requests until the Retry-After and closes their
 * connections; another client's writes (127.0.0.3) are answered 200 meanwhile, and
 * `ferry_http_shed_total` and the log say what happened. An address past its connection cap
 * has the extra connection closed unread; a write refused 413 holds its client's next one. Asserts answers and counters, never speed.
 */
import assert from 'node:assert/strict'
import http from 'node:http'
import net from 'node:net'
import { test } from 'node:test'
import { startAgent, type AgentProcess } from '../helpers/agent-process.js'
import { waitFor } from '../helpers/sink-server.js'

interface Answer {
  status: number
  body: string
  connection: string
}

function post(agent: http.Agent, url: string, body: string, headers = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers }, (res) => {
      let text = ''
      res.on('data', (d) => (text += d))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: text,
          connection: res.headers.connection ?? '',
        }),
      )
    })
    req.on('error', reject)
    req.end(body)
  })
}

const from = (localAddress: string, maxSockets: number) =>
  new http.Agent({ keepAlive: true, maxSockets, localAddress })

const metric = (text: string, action: string) =>
  Number(
    new RegExp(`^ferry_http_shed_total\\{action="${action}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0,
  )

async function flood(agent: AgentProcess, n: number): Promise<Answer[]> {
  const a = from('127.0.0.2', 4)
  const url = `${agent.url}/v1/write/logging?dry`
  const headers = (i: number) => ({ 'X-Forwarded-For': `10.0.0.${i % 250}` })
  try {
    return await Promise.all(
      Array.from({ length: n }, (_, i) => post(a, url, 'f x=1i', headers(i))),
    )
  } finally {
    a.destroy()
  }
}

/** Writes one at a time from another client until the flood is answered; their answers. */
async function goodWrites(agent: AgentProcess, done: () => boolean): Promise<number[]> {
  const a = from('127.0.0.3', 1)
  const statuses: number[] = []
  try {
    // At least a few, spread over the flood; each within that client's own limit.
    while (!done() || statuses.length < 3) {
      const r = post(a, `${agent.url}/v1/write/metric?dry`, 'g x=1i')
      statuses.push(
        await r.then(
          (x) => x.status,
          () => -1,
        ),
      )
      await new Promise((r) => setTimeout(r, 250))
    }
  } finally {
    a.destroy()
  }
  return statuses
}

test(
  'a flooding client is shed at the listener while another client writes',
  { timeout: 180_000 },
  async () => {
    // The default connection cap (256): a flooder at its cap may reconnect before the agent
    // has seen its closed connection go, and that is the other test's subject.
    const agent = await startAgent({ ENV_REQUEST_RATE_LIMIT: '5' })
    try {
      let flooded = false
      const good = goodWrites(agent, () => flooded)
      let answers: Answer[]
      try {
        answers = await flood(agent, 40)
      } finally {
        flooded = true
      }
      assert.deepEqual(
        (await good).filter((s) => s !== 200),
        [],
        'the other client is never refused',
      )
      const statuses = answers.map((a) => a.status)
      assert.deepEqual([...new Set(statuses)].sort(), [200, 429], JSON.stringify(statuses))
      // The limiter's own refusals, and the gate's (held, connection closed).
      assert.ok(answers.some((a) => /more than 5 requests per second/.test(a.body)))
      const gated = answers.filter((a) => /over the per-client limit/.test(a.body))
      assert.ok(gated.length > 0, JSON.stringify(answers))
      for (const a of gated) {
        assert.equal(a.connection, 'close')
        assert.equal(JSON.parse(a.body).error_code, 'agent.reachMaxAPILimit')
      }
      const text = await (await fetch(`${agent.url}/metrics`)).text()
      assert.ok(metric(text, 'client') >= 1, text)
      assert.equal(metric(text, 'held'), gated.length)
      assert.equal(metric(text, 'refused'), 0)
      // Logged under its client: the socket's address, not the forwarded one.
      await waitFor(
        () => agent.logs.some((l) => l.includes('"http_shed"') && l.includes('"127.0.0.2"')),
        10_000,
        'the shed logged',
      )
    } finally {
      await agent.stop()
    }
  },
)

/** A raw connection from `localAddress`: resolves true if the agent closes it unasked. */
function closedUnasked(port: number, localAddress: string, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ port, host: '127.0.0.1', localAddress })
    const timer = setTimeout(() => {
      s.destroy()
      resolve(false)
    }, ms)
    s.on('error', () => undefined)
    s.on('close', () => {
      clearTimeout(timer)
      resolve(true)
    })
  })
}

test(
  'a connection past its address cap is closed unread; a 413 holds the next write',
  { timeout: 180_000 },
  async () => {
    const agent = await startAgent({
      ENV_HTTP_MAX_CONNECTIONS_PER_CLIENT: '2',
      ENV_HTTP_MAX_BODY_SIZE: '1KiB',
    })
    const port = Number(new URL(agent.url).port)
    const held = [0, 1].map(() =>
      net.connect({ port, host: '127.0.0.1', localAddress: '127.0.0.5' }),
    )
    try {
      await Promise.all(held.map((s) => new Promise((r) => s.once('connect', r))))
      // Generous: the agent's accept may lag on a loaded machine; a kept one stays open.
      assert.equal(await closedUnasked(port, '127.0.0.5', 10_000), true)
      const a = from('127.0.0.6', 1)
      assert.equal((await post(a, `${agent.url}/v1/write/metric?dry`, 'g x=1i')).status, 200)
      a.destroy()
      // A body past a cap sheds its client a second: the write right behind it is held.
      const b = from('127.0.0.7', 1)
      const url = `${agent.url}/v1/write/metric?dry`
      assert.equal((await post(b, url, `g x="${'a'.repeat(2000)}"`)).status, 413)
      const next = await post(b, url, 'g x=1i')
      assert.deepEqual([next.status, next.connection], [429, 'close'])
      assert.match(next.body, /over the per-client limit/)
      b.destroy()
      const text = await (await fetch(`${agent.url}/metrics`)).text()
      assert.equal(metric(text, 'connection'), 1)
      assert.equal(metric(text, 'held'), 1)
      await waitFor(
        () => agent.logs.some((l) => l.includes('"http_connection_refused"')),
        10_000,
        'the refusal logged',
      )
    } finally {
      for (const s of held) s.destroy()
      await agent.stop()
    }
  },
)
