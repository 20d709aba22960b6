/**
 * Bounded cost per request (issue 14): decompression bombs and bodies of millions of points are
 * answered quickly with a coded 413, without the memory they ask for.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { compress } from '@mongodb-js/zstd'
import { PbWriter } from '../../../src/decode/codec/pb-writer.js'
import { encodePoint } from '../../../src/decode/codec/protobuf.js'
import { parseBody } from '../../../src/decode/parse-body.js'
import { checkZstdFrames } from '../../../src/decode/zstd-frames.js'
import { testApp } from '../../helpers/app.js'
import { gzipPointBomb, zstdContentBomb, zstdWindowBomb } from '../../helpers/bombs.js'

const MIB = 1024 * 1024

async function timedPost(url: string, body: Uint8Array, headers: Record<string, string> = {}) {
  const { app } = testApp()
  const rssBefore = process.memoryUsage().rss
  const started = performance.now()
  const res = await app.request(url, { method: 'POST', body, headers })
  const json = await res.json()
  const ms = performance.now() - started
  const rssGrowthMb = (process.memoryUsage().rss - rssBefore) / MIB
  return { status: res.status, json, ms, rssGrowthMb }
}

const windowRefused = {
  error_code: 'agent.decoderLimitExceeded',
  message:
    'zstd body refused: the frame at byte 0 declares a window of 1920 MiB, over the limit of 8 MiB',
}

for (const size of [22, 166])
  test(`a ${size}-byte zstd frame declaring a 1.9 GiB window: 413 at once`, async () => {
    const body = zstdWindowBomb((size - 6) / 4)
    assert.equal(body.length, size)
    const r = await timedPost('/v1/write/metric', body, { 'Content-Encoding': 'zstd' })
    assert.equal(r.status, 413)
    assert.deepEqual(r.json, windowRefused)
    // Refused from the frame header: milliseconds. (Decoding it took 7.6 s and 4 GB before.)
    assert.ok(r.ms < 1000, `${r.ms} ms`)
    assert.ok(r.rssGrowthMb < 50, `RSS grew ${r.rssGrowthMb} MB`)
  })

test('a single-segment zstd frame declaring a huge content size: 413, also by ?encoding', async () => {
  const r = await timedPost('/v1/write/metric?encoding=zstd', zstdContentBomb(2 ** 40))
  assert.equal(r.status, 413)
  assert.deepEqual(r.json, {
    error_code: 'agent.decoderLimitExceeded',
    message:
      'zstd body refused: the frame at byte 0 declares a window of 1048576 MiB, over the limit of 8 MiB',
  })
})

test('zstd frames: windows within the limit pass, declared content is summed over frames', async () => {
  const one = await compress(Buffer.from('m f=1i 1\n'.repeat(1000)), 3)
  assert.equal(checkZstdFrames(one, { maxWindow: 8 * MIB, maxOutput: 64 * MIB }), 1)
  const two = Buffer.concat([one, one])
  assert.equal(checkZstdFrames(two, { maxWindow: 8 * MIB, maxOutput: 64 * MIB }), 2)
  const declared = Buffer.concat([zstdContentBomb(6000), zstdContentBomb(6000)])
  assert.throws(() => checkZstdFrames(declared, { maxWindow: 8 * MIB, maxOutput: 10_000 }), {
    message:
      'zstd body refused: the frame at byte 17 declares 12000 bytes of content in all, over the limit of 10000 bytes',
  })
  assert.throws(
    () =>
      checkZstdFrames(one.subarray(0, one.length - 2), { maxWindow: 8 * MIB, maxOutput: 64 * MIB }),
    {
      message: 'cannot decode zstd body: truncated frame at byte 6',
    },
  )
  const { app } = testApp()
  const res = await app.request('/v1/write/metric', {
    method: 'POST',
    body: two,
    headers: { 'Content-Encoding': 'zstd' },
  })
  assert.equal(res.status, 200, await res.text())
})

test('a 64 MiB-window zstd frame of RLE blocks stops at the output limit: 413', async () => {
  const r = await timedPost('/v1/write/metric', zstdWindowBomb(600, 0x50), {
    'Content-Encoding': 'zstd',
  })
  assert.equal(r.status, 413)
  assert.deepEqual(r.json, {
    error_code: 'agent.bodyTooLarge',
    message: 'decompressed body exceeds the limit of 67108864 bytes',
  })
  assert.ok(r.ms < 2000, `${r.ms} ms`)
})

test('a gzip body expanding to 9 million tiny points: 413 tooManyPoints, memory bounded', async () => {
  const body = gzipPointBomb(9_000_000)
  assert.ok(body.length < 100_000)
  const r = await timedPost('/v1/write/metric', body, { 'Content-Encoding': 'gzip' })
  assert.equal(r.status, 413)
  assert.deepEqual(r.json, {
    error_code: 'agent.tooManyPoints',
    message:
      'the body holds more than 250000 points ([http_api] max_points_per_request); send them in several writes',
  })
  assert.ok(r.ms < 3000, `${r.ms} ms`)
  assert.ok(r.rssGrowthMb < 400, `RSS grew ${r.rssGrowthMb} MB`)
})

test('max_points_per_request applies to line protocol, JSON and protobuf alike', async () => {
  const env = { ENV_HTTP_MAX_POINTS_PER_REQUEST: '3' }
  const post = async (body: string | Uint8Array, headers: Record<string, string> = {}) => {
    const { app } = testApp({ env })
    const res = await app.request('/v1/write/metric', { method: 'POST', body, headers })
    return [
      res.status,
      res.status === 200 ? null : ((await res.json()) as { error_code: string }).error_code,
    ]
  }
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `m f=${i}i`).join('\n')
  assert.deepEqual(await post(lines(3)), [200, null])
  assert.deepEqual(await post(lines(4)), [413, 'agent.tooManyPoints'])
  const json = (n: number) =>
    JSON.stringify(Array.from({ length: n }, () => ({ measurement: 'm', fields: { f: 1 } })))
  const asJson = { 'Content-Type': 'application/json' }
  assert.deepEqual(await post(json(3), asJson), [200, null])
  assert.deepEqual(await post(json(4), asJson), [413, 'agent.tooManyPoints'])
  assert.deepEqual(await post(json(4)), [413, 'agent.tooManyPoints'])
  const w = new PbWriter(1024)
  for (const p of parseBody('', Buffer.from(lines(4))).points) encodePoint(w, p)
  const pb = w.finish()
  assert.equal(parseBody('application/protobuf', pb, 4).points.length, 4)
  assert.throws(() => parseBody('application/protobuf', pb, 3), { code: 'tooManyPoints' })
})
