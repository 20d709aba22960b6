/**
 * The workspace service under hostile requests (issue 14): bodies limited while read, deep DQL
 * nesting answered 400, a bounded API key cache, constant-time token and admin checks.
 */
import assert from 'node:assert/strict'
import crypto from 'node:crypto'
import { after, before, test } from 'node:test'
import { Registry } from 'prom-client'
import { ADMIN_HEADER } from '../../src/workspace/api/admin.js'
import { createWorkspaceApp } from '../../src/workspace/api/app.js'
import { KEY_CACHE_SIZE } from '../../src/workspace/store/accounts.js'
import { query, startWorkspace, type TestWorkspace } from '../helpers/workspace.js'

let w: TestWorkspace
before(async () => {
  w = await startWorkspace()
})
after(() => w.stop())

const app = () => createWorkspaceApp(w.service.deps!, new Registry())

test('a 400 MB body to /v1/query/raw is refused once 64 MiB have been read', async () => {
  let sent = 0
  const chunk = new Uint8Array(1 << 20).fill(0x20)
  const body = new ReadableStream<Uint8Array>({
    pull(ctrl) {
      if (sent >= 400 << 20) return ctrl.close()
      sent += chunk.length
      ctrl.enqueue(chunk)
    },
  })
  const rss = process.memoryUsage().rss
  const init = { method: 'POST', body, duplex: 'half' } as RequestInit
  const res = await app().request(`/v1/query/raw?token=${w.token}`, init)
  assert.equal(res.status, 413)
  const answer = (await res.json()) as Record<string, unknown>
  assert.equal(answer.errorCode, 'BodyTooLarge')
  assert.equal(answer.message, 'request body exceeds the limit of 67108864 bytes')
  assert.ok(sent <= 66 << 20, `read ${sent} bytes`)
  assert.ok(process.memoryUsage().rss - rss < 200 << 20)
})

test('5,000 nested parentheses: 400 QueryInvalid, not 500', async () => {
  const q = `M::cpu {${'('.repeat(5000)}a = 1${')'.repeat(5000)}}`
  const { status, body } = await query(w, [{ query: q }])
  assert.equal(status, 400)
  assert.equal(body.errorCode, 'QueryInvalid')
  assert.equal(
    body.message,
    'queries[0]: DQL parse error at position 108: conditions nested deeper than 100 levels',
  )
})

test('random DF-API-KEYs never grow the key cache past its bound; good keys still work', async () => {
  const a = w.service.deps!.accounts
  for (let i = 0; i < KEY_CACHE_SIZE + 100; i++)
    assert.equal(await a.byApiKey(crypto.randomBytes(20).toString('hex')), undefined)
  assert.equal(a.keyCacheSize, KEY_CACHE_SIZE)
  const res = await fetch(`${w.base}/api/v1/validate`, { headers: { 'DF-API-KEY': w.key } })
  assert.equal(res.status, 200)
})

test('data tokens: only the exact token, and a new workspace is known at once', async () => {
  const a = w.service.deps!.accounts
  assert.equal((await a.byToken(w.token))?.name, 'test')
  for (const t of [w.token.slice(0, -1), `${w.token}0`, '', w.token.toUpperCase()])
    assert.equal(await a.byToken(t), undefined, t)
  const created = await a.create('second')
  assert.equal((await a.byToken(created.token))?.name, 'second')
})

test('the admin secret: a wrong one of any length is refused', async () => {
  const secret = w.service.deps!.adminSecret
  for (const s of [secret.slice(0, -1), `${secret}x`, 'x']) {
    const res = await fetch(`${w.base}/admin/v1/workspace/list`, { headers: { [ADMIN_HEADER]: s } })
    assert.equal(res.status, 403)
  }
  const ok = await fetch(`${w.base}/admin/v1/workspace/list`, {
    headers: { [ADMIN_HEADER]: secret },
  })
  assert.equal(ok.status, 200)
})
