/**
 * The Open API's documented rules through `app.request()`: unique dashboard names and ids,
 * length limits, null refused, the list ordered by update time and filtered by tag names, an
 * undocumented body field counted and ignored, access keys added and deleted only in their own
 * workspace, and the 503 `InternalError` of an unknown failure.
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { Registry } from 'prom-client'
import { createWorkspaceApp } from '../../../src/workspace/api/app.js'
import type { TestWorkspace } from '../../helpers/workspace.js'
import { startWorkspaceApp, type WorkspaceApp } from '../../helpers/workspace-app.js'

let w: TestWorkspace
let app: WorkspaceApp
before(async () => ({ w, app } = await startWorkspaceApp()))
after(() => w.stop())

interface Answer {
  code: number
  content: unknown
  errorCode: string
  message: string
}

async function call(method: string, path: string, body?: unknown, key = w.key) {
  const res = await app.request(path, {
    method,
    headers: { 'DF-API-KEY': key, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return (await res.json()) as Answer
}

const create = (body: unknown) => call('POST', '/api/v1/dashboards/create', body)
const names = (a: Answer) => (a.content as { name: string }[]).map((d) => d.name)

test('names are unique, at most 128 characters; desc at most 2048; null is refused', async () => {
  assert.equal((await create({ name: 'one' })).code, 200)
  const twin = await create({ name: 'one' })
  assert.deepEqual([twin.code, twin.errorCode], [400, 'DuplicateName'])
  assert.equal((await create({ name: 'n'.repeat(128) })).code, 200)
  const long = await create({ name: 'n'.repeat(129) })
  assert.deepEqual([long.code, long.errorCode], [400, 'InvalidParameter'])
  const desc = await create({ name: 'd', desc: 'x'.repeat(2049) })
  assert.deepEqual(
    [desc.code, desc.message],
    [400, 'desc must be a string of at most 2048 characters'],
  )
  const nul = await create({ name: 'e', extend: null })
  assert.deepEqual([nul.code, nul.message], [400, 'extend must not be null'])
  const mod = await call('POST', '/api/v1/dashboards/list', {})
  assert.equal(mod.code, 405)
})

test('a client-chosen id is kept, must be dsbd_custom_ + 32, and is unique', async () => {
  const id = `dsbd_custom_${'b'.repeat(32)}`
  const a = await create({ name: 'custom', specifyDashboardUUID: id })
  assert.equal((a.content as { uuid: string }).uuid, id)
  const again = await create({ name: 'custom 2', specifyDashboardUUID: id })
  assert.deepEqual([again.code, again.errorCode], [400, 'DuplicateName'])
  const bad = await create({ name: 'custom 3', specifyDashboardUUID: 'dsbd_custom_X' })
  assert.equal(bad.code, 400)
})

test('the list is newest change first and filtered by any of the tag names', async () => {
  const ids: Record<string, string> = {}
  for (const [name, tags] of [
    ['t-a', ['red']],
    ['t-b', ['blue']],
    ['t-c', ['red', 'blue']],
  ] as const) {
    const a = await create({ name, tagNames: tags })
    ids[name] = (a.content as { uuid: string }).uuid
  }
  // Changed last, so listed first although it was created first.
  await new Promise((r) => setTimeout(r, 5))
  await call('POST', `/api/v1/dashboards/${ids['t-a']}/modify`, { desc: 'touched' })
  const q = encodeURIComponent('["red"]')
  assert.deepEqual(names(await call('GET', `/api/v1/dashboards/list?tagNames=${q}`)), [
    't-a',
    't-c',
  ])
  const blue = await call('GET', '/api/v1/dashboards/list?search=t-&tagNames=blue')
  assert.deepEqual(names(blue), ['t-c', 't-b'])
  const bad = await call('GET', '/api/v1/dashboards/list?tagNames=%5B1%5D')
  assert.equal(bad.code, 400)
})

test('an undocumented body field or query parameter is ignored, counted, the rest applied', async () => {
  const counter = w.service.deps!.events.metrics.undocumentedFields
  const before = (await counter.get()).values.find((v) => v.labels.operation === 'dashboard create')
  const a = await create({ name: 'typo', tags: ['x'], templateInfos: {} })
  assert.equal(a.code, 200)
  assert.deepEqual((a.content as { tagNames: string[] }).tagNames, [])
  const now = (await counter.get()).values.find((v) => v.labels.operation === 'dashboard create')
  assert.equal((now?.value ?? 0) - (before?.value ?? 0), 2)
  // A misspelt query parameter too: `page` for `pageIndex`.
  assert.equal((await call('GET', '/api/v1/dashboards/list?page=2&pageSize=5')).code, 200)
  const list = (await counter.get()).values.find((v) => v.labels.operation === 'dashboard list')
  assert.equal(list?.value, 1)
})

test('access keys: add shows the secret once, delete works only in the own workspace', async () => {
  const made = await call('POST', '/api/v1/workspace/accesskey/add', { name: 'ci' })
  const k = made.content as { uuid: string; sk: string; name: string }
  assert.deepEqual([made.code, k.name], [200, 'ci'])
  assert.match(k.sk, /^[0-9a-f]{40}$/)
  const list = await call('GET', '/api/v1/workspace/accesskey/list?search=ci', undefined, k.sk)
  assert.deepEqual(
    (list.content as { name: string; sk: string }[]).map((x) => [x.name, x.sk]),
    [['ci', k.sk]],
  )
  const other = await w.service.ensureWorkspace('other')
  const theirs = await w.service.deps!.accounts.createKey(other.name, 'theirs')
  const refused = await call('GET', `/api/v1/workspace/accesskey/${theirs.info.id}/delete`)
  assert.deepEqual([refused.code, refused.errorCode], [404, 'ObjectNotFound'])
  const del = await call('GET', `/api/v1/workspace/accesskey/${k.uuid}/delete`)
  assert.deepEqual([del.code, del.content], [200, true])
  const gone = await call('GET', '/api/v1/validate', undefined, k.sk)
  assert.deepEqual([gone.code, gone.errorCode], [403, 'InvalidApiKey'])
})

test('an unknown failure is 503 InternalError, as spec 000 names it', async () => {
  const failing = createWorkspaceApp(w.service.deps!, new Registry())
  failing.get('/boom', () => {
    throw new Error('not a FerryError')
  })
  const res = await failing.request('/boom')
  const body = (await res.json()) as Answer
  assert.deepEqual([res.status, body.code, body.errorCode], [503, 503, 'InternalError'])
})

test("workspace/get: durationSet is the workspace's own retention where it has one", async () => {
  const ws = await w.service.ensureWorkspace('test')
  await w.service.deps!.retentionOverrides.set(ws.id, 'tracing', 3 * 86_400_000)
  const got = await call('GET', '/api/v1/workspace/get')
  const set = (got.content as { durationSet: Record<string, string> }).durationSet
  assert.deepEqual([set.tracing, set.logging, set.rp], ['3d', '7d', '30d'])
})
