/** The shared source map cases: web vectors exact, unsafe names and entries refused. */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { zipSync } from 'fflate'
import { SourceMapResolver } from '../../../src/rum/sourcemap/resolver.js'
import { safeEntryName, zipName, zipPath } from '../../../src/rum/sourcemap/names.js'
import { urlPath } from '../../../src/rum/sourcemap/web.js'

const FIX = new URL('../../fixtures/sourcemap/', import.meta.url)
const fixture = (name: string) => new Uint8Array(fs.readFileSync(new URL(name, FIX)))
const cases = JSON.parse(fs.readFileSync(new URL('cases.json', FIX), 'utf8')) as {
  cases: { id: string; error_stack_in?: string; error_stack_source_out?: string }[]
}
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-sm-'))
after(() => fs.rmSync(root, { recursive: true, force: true }))

function putZip(platform: string, name: string, entries: Record<string, Uint8Array>): void {
  fs.mkdirSync(path.join(root, platform), { recursive: true })
  fs.writeFileSync(path.join(root, platform, name), zipSync(entries))
}

putZip('web', 'appid_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx-production-1.0.0.zip', {
  'dist/bundle.js.map': fixture('datakit-testdata-bundle.js.map'),
})
putZip('web', 'appid_test123-test-1.0.0.zip', { 'sdk/mitt.umd.js.map': fixture('mitt.umd.js.map') })
putZip('web', 'preact-none-none.zip', {
  'dist/preact.min.js.map': fixture('preact.min.js.map'),
  '../evil.js.map': fixture('mitt.umd.js.map'),
})
/** Budgets far above these fixtures: the bounded cases are in zip-bomb.test.ts. */
const BUDGETS = { maxEntries: 100_000, zipBytes: 1 << 24, zipEntries: 1_000, waitMs: 10_000 }
const resolver = new SourceMapResolver({
  root,
  maxZips: 4,
  maxBytes: 1 << 24,
  recheckMs: 0,
  ...BUDGETS,
})
after(() => resolver.close())
const input = (appId: string, env: string, version: string, stack: string) => ({
  stack,
  appId,
  env,
  version,
  sdkName: 'df_web_rum_sdk',
})

test('the bundle and mitt stacks map exactly as the reference maps them', async () => {
  const [bundle, mitt] = cases.cases
  const a = await resolver.resolve(
    input('appid_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'production', '1.0.0', bundle.error_stack_in!),
  )
  assert.deepEqual(a, { status: 'success', reason: '', mapped: bundle.error_stack_source_out })
  const b = await resolver.resolve(input('appid_test123', 'test', '1.0.0', mitt.error_stack_in!))
  assert.equal(b.mapped, mitt.error_stack_source_out)
  assert.equal(b.status, 'success')
  // The page's own frames have no map: the last such failure is the reason.
  assert.equal(
    b.reason,
    'parse sourcemap for [http://127.0.0.1:18080/:18:78] failed: sourcemap file [.map] is required',
  )
})

test('preact vectors, and a zip entry leaving the archive is never loaded', async () => {
  const stack = ['1:7335', '1:9320', '1:9751'].map(
    (p) => `at x @ https://cdn.example/dist/preact.min.js:${p}`,
  )
  const r = await resolver.resolve(input('preact', '', '', stack.join('\n')))
  assert.equal(
    r.mapped,
    [
      'at x @ ../src/diff/index.js:470:17',
      'at x @ ../src/diff/catch-error.js:26:15',
      'at x @ ../src/component.js:64:24',
    ].join('\n'),
  )
  const evil = await resolver.resolve(input('preact', '', '', 'at x @ http://a/../evil.js:1:420'))
  assert.equal(evil.status, 'error')
  assert.equal(safeEntryName('../evil.js.map'), null)
  assert.equal(safeEntryName('/etc/x.map'), null)
  assert.equal(safeEntryName('a/../../x.map'), null)
  assert.equal(safeEntryName('a/./b.js.map'), 'a/b.js.map')
})

test('negative frames stay unchanged', async () => {
  const app = ['appid_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'production', '1.0.0'] as const
  const letters = await resolver.resolve(input(...app, 'x @ http://a.com/1.js:a:1'))
  assert.deepEqual(letters, { status: 'success', reason: '', mapped: 'x @ http://a.com/1.js:a:1' })
  const triple = await resolver.resolve(
    input(...app, 'x @ http:///localhost:5500/dist/bundle.js:1:821'),
  )
  assert.equal(triple.mapped, null)
  assert.equal(urlPath('http:///localhost:5500/dist/bundle.js'), '/localhost:5500/dist/bundle.js')
  const none = await resolver.resolve(
    input('nobody', 'production', '1.0.0', 'x @ http://a/b.js:1:2'),
  )
  assert.deepEqual(none, {
    status: 'no-zip',
    reason: 'source map file [web/nobody-production-1.0.0.zip] not exists',
    mapped: null,
  })
  assert.equal((await resolver.resolve(input('', '', '', 'x'))).status, 'lack-field')
})

test('a bad zip is an error, a replaced zip is reloaded, a removed one forgotten', async () => {
  fs.writeFileSync(path.join(root, 'web', 'bad-none-none.zip'), 'not a zip')
  const bad = await resolver.resolve(input('bad', '', '', 'x @ http://a/b.js:1:2'))
  assert.equal(bad.status, 'error')
  assert.match(bad.reason, /^read sourcemap zip failed: /)
  putZip('web', 'bad-none-none.zip', { 'b.js.map': fixture('mitt.umd.js.map') })
  const good = await resolver.resolve(input('bad', '', '', 'x @ http://a/b.js:1:420'))
  assert.equal(good.mapped, 'x @ ../src/index.ts:109:6')
  fs.rmSync(path.join(root, 'web', 'bad-none-none.zip'))
  assert.equal(
    (await resolver.resolve(input('bad', '', '', 'x @ http://a/b.js:1:420'))).status,
    'no-zip',
  )
})

test('zip names: none for empty parts, separators replaced, escapes refused', () => {
  assert.equal(zipName('a', '', ''), 'a-none-none.zip')
  assert.equal(zipName('../../etc', 'x', 'y'), '..__..__etc-x-y.zip')
  assert.equal(zipPath('/r', 'web', '..'), null)
  assert.equal(zipPath('/r', 'web', 'a-b-c.zip'), '/r/web/a-b-c.zip')
})

test('the cache holds at most its zips', async () => {
  const small = new SourceMapResolver({
    root,
    maxZips: 1,
    maxBytes: 1 << 24,
    recheckMs: 60_000,
    ...BUDGETS,
  })
  await small.resolve(input('appid_test123', 'test', '1.0.0', 'x @ http://a/sdk/mitt.umd.js:1:420'))
  await small.resolve(input('preact', '', '', 'x @ http://a/dist/preact.min.js:1:7335'))
  assert.equal(small.cache.size, 1)
  small.close()
  assert.equal(small.cache.size, 0)
})
