/**
 * CDN marking with a fake DNS resolver (no network): the table's zones and patterns, the
 * user's cdn_map, first-party and failed lookups, the cache, the bound on how long a write
 * waits (the lookup finishing in the background for the next write), the concurrency bound,
 * and resource points without a host left alone.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { isDomainName, CdnMarker } from '../../../src/rum/cdn/marker.js'
import { CdnTable } from '../../../src/rum/cdn/table.js'
import type { CnameResolver } from '../../../src/rum/cdn/lookup.js'
import { Kind, newPoint, type Point } from '../../../src/shared/point.js'
import { plainTask } from '../../../src/ingest/protocol.js'
import { processTask } from '../../../src/ingest/process.js'
import { createRumStage } from '../../../src/rum/stage.js'
import { payloadShapes } from '../../helpers/points.js'

const noData = () => Object.assign(new Error('no data'), { code: 'ENODATA' })

/** A fake DNS: name → CNAME, `null` for a name without one; anything else is NXDOMAIN. */
function fakeDns(records: Record<string, string | null>, delayMs = 0) {
  const asked: string[] = []
  const resolve: CnameResolver = async (host) => {
    asked.push(host)
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs))
    if (!(host in records)) throw Object.assign(new Error('nx'), { code: 'ENOTFOUND' })
    const c = records[host]
    if (c === null) throw noData()
    return [c]
  }
  return { resolve, asked }
}

function marker(resolve: CnameResolver, o: Partial<{ waitMs: number; concurrency: number }> = {}) {
  return new CdnMarker({
    resolve,
    table: CdnTable.builtIn(),
    waitMs: o.waitMs ?? 200,
    timeoutMs: 1_000,
    concurrency: o.concurrency ?? 8,
    cacheSize: 100,
    ttlMs: 60_000,
  })
}

function resource(host?: string, name = 'resource'): Point {
  const p = newPoint(name)
  if (host !== undefined) p.tags.push({ key: 'resource_url_host', value: host })
  p.fields.push({ key: 'resource_size', kind: Kind.INT, value: 1 })
  return p
}

const provider = (p: Point) => {
  const get = (k: string) => p.fields.find((f) => f.key === k)?.value
  return [get('provider_type'), get('provider_name')]
}

test('the table: zones at any depth, case and trailing dots ignored, the kunlun pattern', () => {
  const t = CdnTable.builtIn()
  assert.equal(t.provider('d1234.cloudfront.net.'), 'AWS CloudFront')
  assert.equal(t.provider('E1.AkamaiEdge.net'), 'Akamai CDN')
  assert.equal(t.provider('x.y.ccgslb.com.cn'), '蓝汛 CDN')
  assert.equal(t.provider('site.azurewebsites.windows.net'), 'Microsoft Azure App Service')
  assert.equal(t.provider('a.b.kunlunsl.com'), '阿里云 CDN')
  assert.equal(t.provider('kunlunsl.com'), null)
  assert.equal(t.provider('example.org'), null)
})

test("the user's cdn_map replaces the table; a * in a domain is a pattern", () => {
  const t = CdnTable.fromConfig(
    JSON.stringify([
      { domain: 'mycdn.net', name: 'My CDN', website: 'https://x' },
      { domain: 'edge*.io', name: 'Edge', website: '' },
    ]),
  )
  assert.equal(t.provider('a.mycdn.net'), 'My CDN')
  assert.equal(t.provider('a.edge42.io'), 'Edge')
  assert.equal(t.provider('a.edge4.2.io'), null)
  assert.equal(t.provider('d1.cloudfront.net'), null)
  assert.throws(() => CdnTable.fromConfig('[]'), /non-empty JSON array/)
})

test('domain names only: addresses and single labels are never looked up', () => {
  assert.equal(isDomainName('static.example.com'), true)
  for (const s of ['127.0.0.1', '114.114.114.114', '[::1]', 'localhost', '', 'a..b', '-a.com'])
    assert.equal(isDomainName(s), false, s)
})

test('CDN, first-party and unknown, as the reference classifies them', async () => {
  const dns = fakeDns({
    'static.shop.com': 'shop.com.edgekey.net',
    'shop.com.edgekey.net': 'e12.a.akamaiedge.net',
    'e12.a.akamaiedge.net': null,
    'www.own.com': null,
    'img.other.com': 'img.other.example',
    'img.other.example': null,
  })
  const m = marker(dns.resolve)
  const pts = ['static.shop.com', 'www.own.com', 'img.other.com', 'gone.example.com', '10.0.0.1']
  const points = pts.map((h) => resource(h))
  const stat = await m.mark(points)
  assert.deepEqual(points.map(provider), [
    ['CDN', 'Akamai CDN'],
    ['first-party', 'unknown'],
    ['CDN', 'unknown'],
    ['unknown', 'unknown'],
    ['unknown', 'unknown'],
  ])
  assert.deepEqual(stat, { cached: 0, looked: 4, late: 0 })
})

test('cached hosts are not asked again; other measurements and host-less points untouched', async () => {
  const dns = fakeDns({ 'cdn.site.com': 'd9.cloudfront.net', 'd9.cloudfront.net': null })
  const m = marker(dns.resolve)
  await m.mark([resource('cdn.site.com')])
  const again = [resource('CDN.site.com'), resource('cdn.site.com', 'view'), resource()]
  assert.deepEqual(await m.mark(again), { cached: 1, looked: 0, late: 0 })
  assert.deepEqual(provider(again[0]), ['CDN', 'AWS CloudFront'])
  assert.deepEqual(provider(again[1]), [undefined, undefined])
  assert.deepEqual(provider(again[2]), [undefined, undefined])
  assert.deepEqual(dns.asked, ['cdn.site.com', 'd9.cloudfront.net'])
})

test('a slow lookup holds the write only waitMs; the next write finds it cached', async () => {
  const dns = fakeDns({ 'slow.site.com': 'x.fastly.net', 'x.fastly.net': null }, 60)
  const m = marker(dns.resolve, { waitMs: 10 })
  const first = resource('slow.site.com')
  assert.deepEqual(await m.mark([first]), { cached: 0, looked: 0, late: 1 })
  assert.equal(m.lookups.inFlight, 1, 'the write returned while the lookup still ran')
  assert.deepEqual(provider(first), ['unknown', 'unknown'])
  while (m.lookups.inFlight > 0) await new Promise((r) => setTimeout(r, 10))
  const next = resource('slow.site.com')
  assert.deepEqual(await m.mark([next]), { cached: 1, looked: 0, late: 0 })
  assert.deepEqual(provider(next), ['CDN', 'Fastly'])
})

test('at most `concurrency` lookups run; hosts beyond wait for a later write', async () => {
  const dns = fakeDns({ 'a.x.com': null, 'b.x.com': null, 'c.x.com': null }, 20)
  const m = marker(dns.resolve, { concurrency: 2, waitMs: 500 })
  const stat = await m.mark(['a.x.com', 'b.x.com', 'c.x.com'].map((h) => resource(h)))
  assert.deepEqual(stat, { cached: 0, looked: 2, late: 1 })
  assert.deepEqual(dns.asked, ['a.x.com', 'b.x.com'])
})

test('a lookup that never answers is abandoned after the timeout and cached as unknown', async () => {
  const never: CnameResolver = () => new Promise(() => undefined)
  const m = new CdnMarker({
    resolve: never,
    table: CdnTable.builtIn(),
    waitMs: 200,
    timeoutMs: 20,
    concurrency: 1,
    cacheSize: 10,
    ttlMs: 60_000,
  })
  const p = resource('hang.site.com')
  assert.deepEqual(await m.mark([p]), { cached: 0, looked: 1, late: 0 })
  assert.deepEqual(provider(p), ['unknown', 'unknown'])
  assert.equal(m.lookups.inFlight, 0)
})

test('a RUM write through the decode task: resource points leave with provider fields', async () => {
  const dns = fakeDns({ 'img.shop.com': 'img.shop.com.cdn.cloudflare.net' })
  const rum = createRumStage(
    {
      resolver: {
        root: '/nonexistent',
        maxZips: 1,
        maxBytes: 1,
        recheckMs: 0,
        ...{ maxEntries: 1, zipBytes: 1, zipEntries: 1, waitMs: 1_000 },
      },
      cdn: { cdnMap: '', waitMs: 200, timeoutMs: 500, concurrency: 4, cacheSize: 10, ttlMs: 1e6 },
      symbols: null,
    },
    dns.resolve,
  )
  const body = Buffer.from(
    'resource,app_id=a1,resource_url_host=img.shop.com duration=1i 1700000000000000000\n' +
      'view,app_id=a1 loading_time=2i 1700000000000000000\n',
  )
  const task = plainTask(new Uint8Array(body), 'rum', {
    rum: { geoTags: [], appIds: [], measurements: [] },
  })
  const r = await processTask(task, null, rum)
  assert.ok(r.ok)
  const [res, view] = payloadShapes(r.payload)
  assert.deepEqual(res.fields, {
    duration: { int: '1' },
    provider_type: { string: 'CDN' },
    provider_name: { string: 'Cloudflare' },
  })
  assert.deepEqual(Object.keys(view.fields), ['loading_time'])
  assert.deepEqual(r.cdn, { cached: 0, looked: 1, late: 0 })
})
