/** Global host and election tags (spec 4.8, 4.9): reply shapes, rules, and persistence. */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { parse } from 'smol-toml'
import { addedLines } from '../../helpers/lines.js'
import { testApp } from '../../helpers/app.js'
import { payloadShapes } from '../../helpers/points.js'

const SHIPPED = new URL('../../../conf.d/ferry.conf', import.meta.url)

function tmpConfig(text = fs.readFileSync(SHIPPED, 'utf8')): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-tags-')), 'ferry.conf')
  fs.writeFileSync(file, text)
  return file
}

interface Reply {
  'host-tags'?: Record<string, string>
  persisted?: boolean
  error_code?: string
  message?: string
}

async function call(app: ReturnType<typeof testApp>['app'], method: string, url: string) {
  const res = await app.request(url, { method })
  return { status: res.status, body: (await res.json()) as Reply }
}

test('GET answers JSON objects; POST and DELETE answer the three tables', async () => {
  const { app } = testApp({ hostTags: { region: 'eu' } })
  assert.deepEqual(await call(app, 'GET', '/v1/global/host/tags'), {
    status: 200,
    body: { 'host-tags': { region: 'eu', host: 'my-testing' } },
  })
  const all = { region: 'eu', host: 'my-testing', a: '1', b: 'x y' }
  assert.deepEqual(await call(app, 'POST', '/v1/global/host/tags?a=1&b=x%20y&a=2&host=evil'), {
    status: 200,
    body: { 'dataway-tags': all, 'election-tags': all, 'host-tags': all, persisted: false },
  })
  const left = { region: 'eu', host: 'my-testing', b: 'x y' }
  assert.deepEqual(await call(app, 'DELETE', '/v1/global/host/tags?tags=a,host,%20nope'), {
    status: 200,
    body: { 'dataway-tags': left, 'election-tags': left, 'host-tags': left, persisted: false },
  })
  // While election is off, the election tags are the host tags.
  assert.deepEqual(await call(app, 'GET', '/v1/global/election/tags'), {
    status: 200,
    body: { 'election-tags': left },
  })
})

test('election tag changes need [election] enable; with it they touch only election tags', async () => {
  const off = testApp().app
  const refusal = {
    status: 500,
    body: {
      error_code: 'agent.electionDisabled',
      message: "Can't use this command when global-election is false.",
    },
  }
  assert.deepEqual(await call(off, 'POST', '/v1/global/election/tags?a=1'), refusal)
  assert.deepEqual(await call(off, 'DELETE', '/v1/global/election/tags?tags=a'), refusal)
  const env = { ENV_ENABLE_ELECTION: 'true', ENV_GLOBAL_ELECTION_TAGS: 'cluster=c1' }
  const on = testApp({ env }).app
  assert.deepEqual(await call(on, 'POST', '/v1/global/election/tags?zone=z'), {
    status: 200,
    body: {
      'dataway-tags': { host: 'my-testing' },
      'election-tags': { cluster: 'c1', zone: 'z' },
      'host-tags': { host: 'my-testing' },
      persisted: false,
    },
  })
})

test('a change applies to the next write at once', async () => {
  const { app, buffer } = testApp()
  await app.request('/v1/global/host/tags?team=core', { method: 'POST' })
  await app.request('/v1/write/metric', { method: 'POST', body: 'cpu v=1i 1' })
  await app.request('/v1/global/host/tags?tags=team', { method: 'DELETE' })
  await app.request('/v1/write/metric', { method: 'POST', body: 'cpu v=2i 2' })
  const tags = buffer.take(10).flatMap((b) => payloadShapes(b.payload).map((p) => p.tags))
  assert.deepEqual(tags, [{ host: 'my-testing', team: 'core' }, { host: 'my-testing' }])
})

test('host mode: changes are written to the config file, the rest of it byte-identical', async () => {
  const file = tmpConfig()
  const original = fs.readFileSync(file, 'utf8')
  const env = { ENV_ENABLE_ELECTION: 'true' }
  const { app } = testApp({ tagFile: file, env })
  const r = await call(app, 'POST', '/v1/global/host/tags?zone=z1&quote=a%22b')
  assert.equal(r.body.persisted, true)
  await call(app, 'POST', '/v1/global/election/tags?cluster=c1')
  const edited = fs.readFileSync(file, 'utf8')
  assert.deepEqual(addedLines(original, edited), [
    'zone = "z1"',
    'quote = "a\\"b"',
    'tags = { cluster = "c1" }',
  ])
  const doc = JSON.parse(JSON.stringify(parse(edited)))
  assert.deepEqual(doc.global_host_tags, { zone: 'z1', quote: 'a"b' })
  assert.deepEqual(doc.election.tags, { cluster: 'c1' })
  await call(app, 'DELETE', '/v1/global/host/tags?tags=zone,quote')
  await call(app, 'DELETE', '/v1/global/election/tags?tags=cluster')
  const back = fs.readFileSync(file, 'utf8')
  assert.deepEqual(addedLines(original, back), ['tags = {}'])
  assert.deepEqual(fs.readdirSync(path.dirname(file)), ['ferry.conf'])
})

test('host mode: a concurrent burst of changes lands whole and in order', async () => {
  const file = tmpConfig(
    '# mine\n[agent]\ndata_dir = "d" # keep\n\n[global_host_tags]\nold = "1"\n',
  )
  const { app } = testApp({ tagFile: file })
  const answers = await Promise.all([
    ...Array.from({ length: 40 }, (_, i) =>
      app.request(`/v1/global/host/tags?k${i}=v${i}`, { method: 'POST' }),
    ),
    app.request('/v1/global/host/tags?tags=old,k3', { method: 'DELETE' }),
  ])
  assert.deepEqual(
    answers.map((a) => a.status),
    Array(41).fill(200),
  )
  const text = fs.readFileSync(file, 'utf8')
  const want = Object.fromEntries(
    Array.from({ length: 40 }, (_, i) => [`k${i}`, `v${i}`]).filter(([k]) => k !== 'k3'),
  )
  assert.deepEqual(JSON.parse(JSON.stringify(parse(text))).global_host_tags, want)
  assert.ok(text.startsWith('# mine\n[agent]\ndata_dir = "d" # keep\n'))
  const mem = await call(app, 'GET', '/v1/global/host/tags')
  assert.deepEqual(mem.body['host-tags'], { ...want, host: 'my-testing' })
})

test('host mode: a file that cannot be written refuses the change and keeps memory as it was', async () => {
  const file = tmpConfig('[global_host_tags]\na = "1"\n')
  const { app } = testApp({ tagFile: file, hostTags: { a: '1' } })
  fs.rmSync(path.dirname(file), { recursive: true })
  const r = await call(app, 'POST', '/v1/global/host/tags?b=2')
  assert.equal(r.status, 500)
  assert.equal(r.body.error_code, 'agent.configWriteFailed')
  assert.match(r.body.message ?? '', /ferry\.conf: ENOENT/)
  assert.deepEqual((await call(app, 'GET', '/v1/global/host/tags')).body, {
    'host-tags': { a: '1', host: 'my-testing' },
  })
})
