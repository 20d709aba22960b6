/**
 * The packed decode task (ingest/task-wire.ts) reads back member for member, through a real
 * structured clone as the worker receives it, for a plain write and one with every rare member.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { plainTask, type DecodeTask } from '../../../src/ingest/protocol.js'
import { isPackedTask, packTask, unpackTask } from '../../../src/ingest/task-wire.js'
import { queryOf } from '../../../src/sources/http/routes/write.js'

/** What the worker receives: the packed task cloned, its body transferred. */
function across(t: DecodeTask): DecodeTask {
  const packed = structuredClone(packTask(t), { transfer: [t.body.buffer as ArrayBuffer] })
  assert.ok(isPackedTask(packed))
  return unpackTask(packed)
}

test('a plain write: every member back, absent members stay absent', () => {
  const t = plainTask(Buffer.from('m f=1i 1'), 'metric', {
    contentType: 'text/plain',
    encoding: 'gzip',
    precision: 'ms',
    strict: true,
    echo: 'json',
    now: 1_700_000_000_123_456_789n,
    extraTags: [
      ['host', 'h1'],
      ['zone', 'a b'],
    ],
    maxBodyBytes: 1024,
    maxPoints: 7,
    pipeline: { version: 3, source: 'nginx' },
    client: '10.0.0.1',
  })
  const expected = { ...t, body: new Uint8Array(Buffer.from('m f=1i 1')) }
  const got = across(t)
  assert.deepEqual({ ...got, body: new Uint8Array(got.body) }, expected)
  assert.equal('rum' in got || 'io' in got || 'otlp' in got || 'geo' in got, false)
})

test('the rare members travel too; a task without client or tags reads back without them', () => {
  const rare = {
    rum: { geoTags: [['city', 'x']] as [string, string][], appIds: ['a'], measurements: [] },
    io: { filters: null, offsetNs: 5n } as unknown as DecodeTask['io'],
    otlp: { signal: 'traces', options: { k: 1 } } as unknown as DecodeTask['otlp'],
  }
  const t = plainTask(Buffer.from('x'), 'rum', rare)
  const got = across(t)
  assert.deepEqual(got.rum, rare.rum)
  assert.deepEqual(got.io, rare.io)
  assert.deepEqual(got.otlp, rare.otlp)
  assert.equal('client' in got, false)
  assert.deepEqual(got.extraTags, [])
})

test('queryOf reads the query as new URL(url).searchParams does', () => {
  const urls = [
    'http://h/v1/write/metric',
    'http://h/v1/write/metric?',
    'http://h/v1/write/metric?precision=ms&input=a+b&source=%E4%BD%A0&dry',
    'http://h/v1/write/logging?echo=lp#frag?x=1',
    'http://h/v1/write/metric?x=%zz&y="q"&&z=1=2',
  ]
  for (const url of urls) assert.deepEqual([...queryOf(url)], [...new URL(url).searchParams], url)
})
