/**
 * Zips over their budget: refused while inflating (bytes over the whole zip, entries),
 * remembered until replaced, for source maps and symbol zips alike; a caller waits at most
 * its bound for a slow load.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { strToU8, zipSync } from 'fflate'
import { readZip, ZipRefused } from '../../../src/rum/zip/bounded.js'
import { SourceMapResolver, type ResolverOptions } from '../../../src/rum/sourcemap/resolver.js'
import { Extractor } from '../../../src/rum/symbols/extract.js'
import { zipBomb } from '../../helpers/bombs.js'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bomb-'))
after(() => fs.rmSync(root, { recursive: true, force: true }))
const MiB = 1 << 20

function put(rel: string, bytes: Uint8Array): string {
  const file = path.join(root, rel)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, bytes)
  return file
}

const bomb = put('bomb.zip', zipBomb(['a.js.map', 'b.js.map', 'c.js.map', 'd.js.map'], 8 * MiB))

async function inflated(file: string, maxBytes: number, maxEntries: number): Promise<number> {
  let bytes = 0
  await readZip(
    file,
    { maxBytes, maxEntries },
    () => true,
    async (_, data) => {
      for await (const chunk of data) bytes += chunk.length
    },
  )
  return bytes
}

test('a zip inflating past its byte budget is refused while inflating, not after', async () => {
  assert.equal(await inflated(bomb, 32 * MiB, 10), 32 * MiB)
  let seen = 0
  await assert.rejects(
    readZip(
      bomb,
      { maxBytes: 10 * MiB, maxEntries: 10 },
      () => true,
      async (_, data) => {
        for await (const chunk of data) seen += chunk.length
      },
    ),
    (e) => e instanceof ZipRefused && e.message === `inflates to more than ${10 * MiB} bytes`,
  )
  // The read stopped at the budget: the first entry whole, the second cut short.
  assert.ok(seen >= 8 * MiB && seen <= 10 * MiB, String(seen))
})

test('a zip with more entries than its budget is refused, declared or counted', async () => {
  const many = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`${i}.txt`, strToU8('x')]))
  const file = put('many.zip', zipSync(many))
  await assert.rejects(
    inflated(file, MiB, 10),
    (e) => e instanceof ZipRefused && e.message === 'more than 10 entries',
  )
  assert.equal(await inflated(file, MiB, 20), 20)
})

const options = (over: Partial<ResolverOptions>): ResolverOptions => ({
  root: path.join(root, 'rum'),
  maxZips: 4,
  maxBytes: 64 * MiB,
  maxEntries: 1_000,
  zipBytes: 4 * MiB,
  zipEntries: 100,
  recheckMs: 0,
  waitMs: 10_000,
  ...over,
})
const stack = 'Error: x\n  at @ http://shop/a.js:1:1'
const input = { stack, appId: 'shop', env: 'prod', version: '1', sdkName: 'df_web_rum_sdk' }

test('a source map zip over budget: refused once, remembered, read again when replaced', async () => {
  put('rum/web/shop-prod-1.zip', fs.readFileSync(bomb))
  const resolver = new SourceMapResolver(options({}))
  after(() => resolver.close())
  const first = await resolver.resolve(input)
  const reason = `inflates to more than ${4 * MiB} bytes`
  assert.deepEqual(first, {
    status: 'error',
    reason: `source map zip [web/shop-prod-1.zip] refused: ${reason}`,
    mapped: null,
    refused: { zip: 'web/shop-prod-1.zip', reason },
  })
  // Named again: the remembered refusal, not a second inflation (and not counted twice).
  const again = await resolver.resolve(input)
  assert.equal(again.reason, first.reason)
  assert.equal(again.refused, undefined)
  assert.equal(resolver.cache.totalBytes, 0)
  put('rum/web/shop-prod-1.zip', zipSync({ 'a.js.map': strToU8('{}') }))
  const replaced = await resolver.resolve(input)
  assert.equal(replaced.refused, undefined)
  assert.match(replaced.reason, /make sure sourcemap file \[a\.js\.map\] is valid/)
})

test('the cache budget bounds a zip too: no zip may inflate past the whole cache', async () => {
  put('rum/web/shop-prod-2.zip', zipBomb(['a.js.map'], 3 * MiB))
  const resolver = new SourceMapResolver(options({ maxBytes: 2 * MiB, zipBytes: 64 * MiB }))
  after(() => resolver.close())
  const r = await resolver.resolve({ ...input, version: '2' })
  assert.equal(r.refused?.reason, `inflates to more than ${2 * MiB} bytes`)
})

test('a caller waits at most its bound for a slow load; the load goes on for the next', async () => {
  put('rum/web/shop-prod-3.zip', zipBomb(['a.js.map'], 40 * MiB))
  const resolver = new SourceMapResolver(options({ zipBytes: 8 * MiB, waitMs: 1 }))
  after(() => resolver.close())
  const r = await resolver.resolve({ ...input, version: '3' })
  assert.equal(r.reason, 'source map zip is still loading, try again later')
  let later = r
  for (let i = 0; i < 400 && !later.reason.includes('refused'); i++) {
    await new Promise((resolve) => setTimeout(resolve, 25))
    later = await resolver.resolve({ ...input, version: '3' })
  }
  // The first caller stopped waiting before the refusal: the next one is told, and counts it.
  assert.equal(later.refused?.zip, 'web/shop-prod-3.zip')
  assert.equal(
    later.reason,
    `source map zip [web/shop-prod-3.zip] refused: inflates to more than ${8 * MiB} bytes`,
  )
})

test('a symbol zip over budget is refused, leaves nothing extracted, and is remembered', async () => {
  const zip = put('rum/android/app-prod-1.zip', zipBomb(['lib/a.so', 'lib/b.so'], 3 * MiB))
  const x = new Extractor({ maxBytes: 4 * MiB, maxEntries: 10 })
  const reason = `inflates to more than ${4 * MiB} bytes`
  assert.deepEqual(await x.extracted(zip), { refused: { reason, fresh: true } })
  assert.deepEqual(await x.extracted(zip), { refused: { reason, fresh: false } })
  assert.deepEqual(fs.readdirSync(path.dirname(zip)), ['app-prod-1.zip'])
  const roomy = new Extractor({ maxBytes: 8 * MiB, maxEntries: 10 })
  assert.deepEqual(await roomy.extracted(zip), { dir: zip.replace(/\.zip$/, '') })
  assert.equal(fs.statSync(path.join(root, 'rum/android/app-prod-1/lib/b.so')).size, 3 * MiB)
})
