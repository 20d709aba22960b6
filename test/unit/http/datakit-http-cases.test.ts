/**
 * Every case of test/fixtures/datakit-http-cases.json through the real HTTP app
 * (app.request(), no socket), adjusted per seed-vs-reference.md: error codes are `agent.*`,
 * and logging's default status is `unknown`.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { test } from 'node:test'
import zlib from 'node:zlib'
import { compress as zstdCompress } from '@mongodb-js/zstd'
import { PbWriter } from '../../../src/decode/codec/pb-writer.js'
import { encodePoint } from '../../../src/decode/codec/protobuf.js'
import { Kind } from '../../../src/shared/point.js'
import { FIXTURES, testApp } from '../../helpers/app.js'

interface HttpCase {
  name: string
  method: string
  url: string
  headers: Record<string, string>
  body: string
  content_encoding?: string
  expect_status: number
  expect_error_code?: string
  expect_body?: string
}

const doc = JSON.parse(fs.readFileSync(new URL('datakit-http-cases.json', FIXTURES), 'utf8'))
const cases: HttpCase[] = doc.cases

/** The spec's answers where it disagrees with the reference agent. */
const SPEC_BODY: Record<string, string> = {
  'auto-fix-logging-no-status': 'some f1=123,status="unknown" 123',
}

function protobufBody(): Uint8Array {
  const w = new PbWriter()
  encodePoint(w, {
    name: 'some',
    tags: [],
    fields: [{ key: 'f1', kind: Kind.INT, value: 123 }],
    time: 123n,
    warns: null,
  })
  return w.finish()
}

async function encodeBody(c: HttpCase): Promise<{ body: Uint8Array; header?: string }> {
  if (c.body.startsWith('<protobuf')) return { body: protobufBody() }
  const raw = Buffer.from(c.body)
  switch (c.content_encoding) {
    case 'gzip':
      return { body: zlib.gzipSync(raw), header: 'gzip' }
    case 'deflate':
      return { body: zlib.deflateRawSync(raw), header: 'deflate' }
    case 'zlib':
      return { body: zlib.deflateSync(raw), header: 'deflate' } // zlib-wrapped, sent as deflate
    case 'br':
      return { body: zlib.brotliCompressSync(raw), header: 'br' }
    case 'zstd':
      return { body: await zstdCompress(raw), header: 'zstd' }
    case undefined:
      return { body: raw }
    default:
      return { body: raw, header: c.content_encoding }
  }
}

for (const c of cases) {
  test(`http case ${c.name}`, async () => {
    const { app } = testApp({ hostTags: { host: 'my-testing' } })
    const { body, header } = await encodeBody(c)
    const headers: Record<string, string> = { ...c.headers }
    if (header) headers['Content-Encoding'] = header
    const res = await app.request(c.url, { method: c.method, headers, body })
    const text = await res.text()
    assert.equal(res.status, c.expect_status, text)
    if (c.expect_error_code)
      assert.equal(JSON.parse(text).error_code, c.expect_error_code.replace(/^datakit\./, 'agent.'))
    else if (c.expect_status >= 400) assert.match(JSON.parse(text).error_code, /^agent\.[a-zA-Z]+$/)
    const want = SPEC_BODY[c.name] ?? c.expect_body
    if (want !== undefined) assert.equal(text, want)
  })
}
