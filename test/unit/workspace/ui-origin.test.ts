/**
 * The UI changes state only from its own origin: a page on another port of the same host
 * (same-site, so the SameSite cookie goes along) cannot create a dashboard with a `no-cors`
 * `text/plain` POST, while the UI's own JSON change works. Wrong API keys are limited per
 * client address, at the login form and on the Open API: 429 with Retry-After, counted.
 */
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import { after, before, test } from 'node:test'
import { Registry } from 'prom-client'
import { createWorkspaceApp } from '../../../src/workspace/api/app.js'
import type { WorkspaceDeps } from '../../../src/workspace/api/deps.js'
import { KeyThrottle } from '../../../src/workspace/api/key-throttle.js'
import { startWorkspace, type TestWorkspace } from '../../helpers/workspace.js'

let w: TestWorkspace
let deps: WorkspaceDeps
let app: ReturnType<typeof createWorkspaceApp>
before(async () => {
  w = await startWorkspace()
  deps = w.service.deps!
  app = createWorkspaceApp(deps, new Registry())
})
after(() => w.stop())

/**
 * As the service sees a request from `ip`: the connection (its address, and the body, which
 * the service reads from the connection when it has one).
 */
const from = (ip: string, body = '') =>
  ({
    incoming: Object.assign(Readable.from(body ? [Buffer.from(body)] : []), {
      socket: { remoteAddress: ip },
    }),
  }) as never

async function session(): Promise<string> {
  const res = await app.request('/ui/login', {
    method: 'POST',
    body: new URLSearchParams({ key: w.key }).toString(),
    headers: { Origin: 'http://localhost:9528', Host: 'localhost:9528' },
  })
  assert.equal(res.status, 303)
  return /^(ferry_ui=[0-9a-f]{64});/.exec(res.headers.get('set-cookie')!)![1]
}

async function dashboards(): Promise<string[]> {
  const res = await app.request('/api/v1/dashboard/list', { headers: { 'DF-API-KEY': w.key } })
  const body = (await res.json()) as { content: { name: string }[] }
  return body.content.map((d) => d.name)
}

test("a change from another port of the same host is refused; the UI's own works", async () => {
  const Cookie = await session()
  const create = (name: string, headers: Record<string, string>) =>
    app.request('/ui/api/v1/dashboard/create', {
      method: 'POST',
      headers: { Cookie, Host: 'localhost:9528', ...headers },
      body: JSON.stringify({ name }),
    })
  // What a page on http://localhost:8080 sends with fetch(..., {mode: 'no-cors'}).
  const noCors = { 'Sec-Fetch-Site': 'same-site', 'Content-Type': 'text/plain;charset=UTF-8' }
  const refused: [string, Record<string, string>, number, string][] = [
    ['other port', { ...noCors, Origin: 'http://localhost:8080' }, 403, 'CrossOriginRefused'],
    [
      'other port as JSON',
      { Origin: 'http://localhost:8080', 'Content-Type': 'application/json' },
      403,
      'CrossOriginRefused',
    ],
    [
      'other scheme',
      { Origin: 'https://localhost:9528', 'Content-Type': 'application/json' },
      403,
      'CrossOriginRefused',
    ],
    [
      'referer of another port',
      { Referer: 'http://localhost:8080/x', 'Content-Type': 'application/json' },
      403,
      'CrossOriginRefused',
    ],
    ['no origin at all', { 'Content-Type': 'application/json' }, 403, 'CrossOriginRefused'],
    [
      'own origin, text/plain',
      { ...noCors, Origin: 'http://localhost:9528' },
      415,
      'UnsupportedMediaType',
    ],
  ]
  for (const [why, headers, status, code] of refused) {
    const res = await create(`evil ${why}`, headers)
    const body = (await res.json()) as { errorCode: string }
    assert.deepEqual([why, res.status, body.errorCode], [why, status, code])
  }
  assert.deepEqual(await dashboards(), [])

  const own = { Origin: 'http://localhost:9528', 'Content-Type': 'application/json' }
  assert.equal((await create('mine', own)).status, 200)
  const fetchMeta = { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' }
  assert.equal((await create('mine as well', fetchMeta)).status, 200)
  const viaReferer = { Referer: 'http://localhost:9528/ui/', 'Content-Type': 'application/json' }
  assert.equal((await create('mine too', viaReferer)).status, 200)
  assert.deepEqual((await dashboards()).sort(), ['mine', 'mine as well', 'mine too'])
  // Logging out is a change too: from another port it leaves the session alone.
  const out = await app.request('/ui/logout', {
    method: 'POST',
    headers: { Cookie, Host: 'localhost:9528', Origin: 'http://localhost:8080' },
  })
  assert.equal(out.status, 403)
})

test('60 bad logins from one address meet 429 with Retry-After; another address does not', async () => {
  const throttled = createWorkspaceApp(
    { ...deps, keys: new KeyThrottle({ limit: 20, windowMs: 60_000, maxClients: 100 }) },
    new Registry(),
  )
  const login = (key: string, ip: string) =>
    throttled.request(
      '/ui/login',
      { method: 'POST', body: `key=${key}`, headers: { Origin: 'http://localhost' } },
      from(ip, `key=${key}`),
    )
  const statuses: number[] = []
  for (let i = 0; i < 60; i++) statuses.push((await login(`wrong${i}`, '192.0.2.7')).status)
  assert.deepEqual(statuses, [...Array(20).fill(403), ...Array(40).fill(429)])
  const blocked = await login(w.key, '192.0.2.7')
  assert.equal(blocked.status, 429)
  const after = Number(blocked.headers.get('retry-after'))
  assert.ok(after >= 1 && after <= 60, String(after))
  assert.match(await blocked.text(), /Too many wrong keys from this address: try again in \d+ s/)
  assert.equal((await login(w.key, '192.0.2.8')).status, 303)
  const metrics = await deps.events.metrics.registry.metrics()
  assert.match(metrics, /ferry_workspace_rejected_requests_total\{code="tooManyKeyAttempts"\} 41/)
})

test('300 wrong DF-API-KEYs in a burst meet 429s; the window ends them', async () => {
  const keys = new KeyThrottle({ limit: 20, windowMs: 60_000, maxClients: 100 })
  const api = createWorkspaceApp({ ...deps, keys }, new Registry())
  const call = (key: string) =>
    api.request('/api/v1/validate', { headers: { 'DF-API-KEY': key } }, from('198.51.100.9'))
  const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => call(`bad${i}`)))
  const count = (s: number) => answers.filter((r) => r.status === s).length
  // Each guess counts from its arrival, before its key is looked up: a burst gets 20 tries.
  assert.deepEqual([count(403), count(429)], [20, 280])
  const last = answers.at(-1)!
  assert.equal(last.status, 429)
  assert.ok(Number(last.headers.get('retry-after')) >= 1)
  assert.equal(((await last.json()) as { errorCode: string }).errorCode, 'TooManyKeyAttempts')
  // The window over, the address may try again (here: on the throttle's own clock).
  assert.equal(keys.retryAfter('198.51.100.9', Date.now() + 60_000), 0)
})
