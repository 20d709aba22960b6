/**
 * The UI's login, session and guard through `app.request()`: a bad key gets no session and no
 * page or data; a good key gets an HttpOnly SameSite=Strict cookie that stands for it (the key
 * is not in the cookie) and reaches pages and data until logout or until the key is revoked.
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { writeLp, type TestWorkspace } from '../../helpers/workspace.js'
import { startWorkspaceApp, type WorkspaceApp } from '../../helpers/workspace-app.js'

let w: TestWorkspace
let app: WorkspaceApp
before(async () => ({ w, app } = await startWorkspaceApp()))
after(() => w.stop())

/** What the UI's own pages send with a change: its origin (app.request's is http://localhost). */
const OWN = { Origin: 'http://localhost' }
const JSON_TYPE = { ...OWN, 'Content-Type': 'application/json' }

const form = (key: string) => ({
  method: 'POST',
  body: new URLSearchParams({ key }).toString(),
  headers: { ...OWN, 'Content-Type': 'application/x-www-form-urlencoded' },
})

async function login(key: string): Promise<string> {
  const res = await app.request('/ui/login', form(key))
  assert.equal(res.status, 303)
  const cookie = res.headers.get('set-cookie') ?? ''
  return /^ferry_ui=([0-9a-f]{64});/.exec(cookie)![1]
}

const PAGES = ['/ui/', '/ui/app/main.js', '/ui/vendor/uPlot.esm.js', '/ui/vendor/uPlot.min.css']
const DATA: [string, string][] = [
  ['GET', '/ui/api/v1/validate'],
  ['GET', '/ui/api/v1/object/host/list'],
  ['GET', '/ui/api/v1/dashboard/list'],
  ['POST', '/ui/api/v1/dashboard/create'],
  ['POST', '/ui/api/query'],
  ['POST', '/ui/api/labels'],
  ['DELETE', '/ui/api/labels'],
  ['GET', '/ui/api/sources'],
  ['GET', '/ui/api/columns?source=M::cpu'],
]

async function assertRefused(cookie: string | null): Promise<void> {
  const headers: Record<string, string> = cookie
    ? { ...JSON_TYPE, Cookie: `ferry_ui=${cookie}` }
    : JSON_TYPE
  for (const p of PAGES) {
    const res = await app.request(p, { headers })
    assert.deepEqual([p, res.status, res.headers.get('location')], [p, 303, '/ui/login'])
  }
  for (const [method, p] of DATA) {
    const res = await app.request(p, { method, headers, body: method === 'GET' ? null : '{}' })
    const body = (await res.json()) as { errorCode: string; content: unknown }
    assert.deepEqual([p, res.status, body.errorCode, body.content], [p, 403, 'InvalidApiKey', null])
  }
}

test('the login form is public and carries a strict content security policy', async () => {
  const res = await app.request('/ui/login')
  assert.equal(res.status, 200)
  assert.match(await res.text(), /<input name="key" type="password"/)
  const csp = res.headers.get('content-security-policy')!
  assert.match(csp, /^default-src 'self'; script-src 'self' 'sha256-[A-Za-z0-9+/=]+'; /)
  assert.equal((await app.request('/ui/style.css')).status, 200)
})

test('a bad key gets no session, no page and no data', async () => {
  for (const key of ['', 'nope', `${w.key}x`]) {
    const res = await app.request('/ui/login', form(key))
    assert.equal(res.status, 403)
    assert.equal(res.headers.get('set-cookie'), null)
    assert.match(await res.text(), /That API key is not valid/)
  }
  await assertRefused(null)
  await assertRefused('0'.repeat(64))
})

test('a good key gets a strict HttpOnly cookie that reaches pages and data', async () => {
  const res = await app.request('/ui/login', form(w.key))
  assert.equal(res.headers.get('location'), '/ui/')
  const cookie = res.headers.get('set-cookie')!
  assert.match(
    cookie,
    /^ferry_ui=[0-9a-f]{64}; Max-Age=43200; Path=\/ui; HttpOnly; SameSite=Strict$/,
  )
  assert.ok(!cookie.includes(w.key))
  const headers = { Cookie: cookie.split(';')[0] }
  const page = await app.request('/ui/', { headers })
  assert.equal(page.status, 200)
  assert.match(await page.text(), /<script type="module" src="\/ui\/app\/main.js">/)
  const uplot = await app.request('/ui/vendor/uPlot.esm.js', { headers })
  assert.equal(uplot.headers.get('content-type'), 'text/javascript; charset=utf-8')
  const validate = await app.request('/ui/api/v1/validate', { headers })
  const v = (await validate.json()) as { content: { workspaceName: string } }
  assert.equal(v.content.workspaceName, 'test')
  const q = await app.request('/ui/api/query', {
    method: 'POST',
    headers: { ...headers, ...JSON_TYPE },
    body: JSON.stringify({ queries: [{ query: 'M::cpu:(avg(x)' }] }),
  })
  const err = (await q.json()) as { errorCode: string; message: string }
  assert.equal(q.status, 400)
  assert.equal(err.errorCode, 'QueryInvalid')
  assert.match(err.message, /at position \d+/)
  const missing = await app.request('/ui/app/..%2F..%2Fpackage.json', { headers })
  assert.equal(missing.status, 400)
})

test('a cross-site change is refused even with the cookie', async () => {
  const id = await login(w.key)
  const res = await app.request('/ui/api/v1/dashboard/create', {
    method: 'POST',
    headers: { ...JSON_TYPE, Cookie: `ferry_ui=${id}`, 'Sec-Fetch-Site': 'cross-site' },
    body: JSON.stringify({ name: 'x' }),
  })
  assert.equal(res.status, 403)
})

test('logout ends the session, and so does revoking the key', async () => {
  const id = await login(w.key)
  const out = await app.request('/ui/logout', {
    method: 'POST',
    headers: { ...OWN, Cookie: `ferry_ui=${id}` },
  })
  assert.equal(out.headers.get('location'), '/ui/login')
  assert.match(out.headers.get('set-cookie')!, /^ferry_ui=; Max-Age=0; Path=\/ui/)
  await assertRefused(id)
  const { info, key } = await w.service.deps!.accounts.createKey('test', 'ui-revoked')
  const id2 = await login(key)
  const ok = await app.request('/ui/api/v1/validate', { headers: { Cookie: `ferry_ui=${id2}` } })
  assert.equal(ok.status, 200)
  await w.service.deps!.accounts.revokeKey(info.id)
  await assertRefused(id2)
})

test('the icon is public at /ui/favicon.svg and /favicon.ico, and the pages link it', async () => {
  for (const p of ['/ui/favicon.svg', '/favicon.ico']) {
    const res = await app.request(p)
    assert.deepEqual([p, res.status, res.headers.get('content-type')], [p, 200, 'image/svg+xml'])
    assert.match(await res.text(), /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
  }
  assert.match(
    await (await app.request('/ui/login')).text(),
    /<link rel="icon" href="\/ui\/favicon\.svg"/,
  )
})

test("Explore's pickers: a source's fields with their type and its tags, by name", async () => {
  const lp = 'pick,host=a,az=z1 usage=1.5,note="x" 1700000000000000000'
  assert.equal((await writeLp(w, 'metric', lp)).status, 200)
  const headers = { Cookie: `ferry_ui=${await login(w.key)}` }
  const res = await app.request('/ui/api/columns?source=M::pick', { headers })
  assert.deepEqual(((await res.json()) as { content: unknown }).content, {
    fields: [
      { name: 'note', type: 'VARCHAR' },
      { name: 'usage', type: 'DOUBLE' },
    ],
    tags: ['az', 'host'],
  })
  const none = await app.request('/ui/api/columns?source=M::nothing', { headers })
  assert.equal(none.status, 404)
})
