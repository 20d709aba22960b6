/**
 * RUM geo tags and whitelists: where the client address comes from, the tags of fixed public
 * addresses in the shipped DB-IP database version, private and malformed addresses, tags a
 * point already has left alone, and the two whitelists' refusals.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { FerryError } from '../../../src/errors.js'
import { addGeoTags, checkRum } from '../../../src/ingest/rum.js'
import { IpDb } from '../../../src/rum/geo/ipdb.js'
import { clientIp, GeoTagger } from '../../../src/rum/geo/tags.js'
import { newPoint } from '../../../src/shared/point.js'
import { plainTask } from '../../../src/ingest/protocol.js'
import { processTask } from '../../../src/ingest/process.js'

const tagger = new GeoTagger(new IpDb())

test('the client address: the configured header first, then X-Real-IP, then the socket', () => {
  const h = (m: Record<string, string>) => (n: string) => m[n.toLowerCase()]
  assert.equal(
    clientIp(h({ 'x-forwarded-for': '8.8.8.8, 10.0.0.1' }), 'X-Forwarded-For', '1.1.1.1'),
    '8.8.8.8',
  )
  assert.equal(clientIp(h({ 'x-real-ip': '9.9.9.9' }), 'X-Forwarded-For', '1.1.1.1'), '9.9.9.9')
  assert.equal(clientIp(h({}), 'X-Forwarded-For', '::ffff:1.2.3.4'), '1.2.3.4')
  assert.equal(clientIp(h({ 'cf-connecting-ip': '4.4.4.4' }), 'CF-Connecting-IP', ''), '4.4.4.4')
})

test('public addresses get city, province, country and isp from the shipped database', async () => {
  await tagger.ready()
  assert.deepEqual(Object.fromEntries(tagger.tags('8.8.8.8')), {
    ip: '8.8.8.8',
    city: 'Mountain View',
    province: 'California',
    country: 'US',
    isp: 'Google LLC',
    ip_status: 'public',
  })
})

test('private, loopback and malformed addresses are tagged as such, with unknown places', async () => {
  await tagger.ready()
  const place = { city: 'unknown', province: 'unknown', country: 'unknown', isp: 'unknown' }
  for (const ip of ['192.168.1.20', '10.0.0.1', '127.0.0.1'])
    assert.deepEqual(Object.fromEntries(tagger.tags(ip)), { ip, ...place, ip_status: 'private' })
  assert.equal(Object.fromEntries(tagger.tags('not-an-ip')).ip_status, 'illegal')
})

test('geo tags never replace what a point already carries', () => {
  const p = newPoint('view')
  p.tags.push({ key: 'city', value: 'Hangzhou' })
  addGeoTags(
    [p],
    [
      ['city', 'Mountain View'],
      ['country', 'US'],
    ],
  )
  assert.deepEqual(p.tags, [
    { key: 'city', value: 'Hangzhou' },
    { key: 'country', value: 'US' },
  ])
})

test('whitelists: an unknown app id is 403, an unknown measurement 400', () => {
  const p = newPoint('view')
  p.tags.push({ key: 'app_id', value: 'other' })
  const task = { geoTags: [], appIds: ['app-1'], measurements: ['view', 'error'] }
  assert.throws(
    () => checkRum([p], task),
    (e: unknown) =>
      e instanceof FerryError && e.code === 'rumAppIdNotInWhiteList' && e.status === 403,
  )
  const odd = newPoint('nonsense')
  assert.throws(
    () => checkRum([odd], { ...task, appIds: [] }),
    (e: unknown) =>
      e instanceof FerryError && e.code === 'unknownRumMeasurement' && e.status === 400,
  )
  p.tags[0].value = 'app-1'
  checkRum([p], task)
})

test('a RUM echo shows the geo tags that are stored with the points', async () => {
  const geoTags: [string, string][] = [
    ['ip', '8.8.8.8'],
    ['city', 'Mountain View'],
    ['province', 'California'],
    ['country', 'US'],
    ['isp', 'google'],
  ]
  const body = new TextEncoder().encode('view,app_id=a1 loading_time=2i 1700000000000000000')
  const task = plainTask(body, 'rum', {
    echo: 'lp',
    rum: { geoTags, appIds: [], measurements: [] },
  })
  const r = await processTask(task)
  assert.ok(r.ok)
  assert.equal(
    r.echo,
    'view,app_id=a1,city=Mountain\\ View,country=US,ip=8.8.8.8,isp=google,province=California loading_time=2i 1700000000000000000',
  )
})
