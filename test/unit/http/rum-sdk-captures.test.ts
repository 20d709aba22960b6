/**
 * Captured traffic of the real browser RUM/Logs SDK (test/fixtures/rum-sdk-captures): line
 * protocol with precision=ms, JSON sent as text/plain, and zlib-deflated bodies with
 * encoding=deflate. Every write is accepted and yields exactly the SDK's points.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { test } from 'node:test'
import zlib from 'node:zlib'
import { FIXTURES, testApp } from '../../helpers/app.js'
import { payloadShapes } from '../../helpers/points.js'

interface Capture {
  method: string
  url: string
  headers: Record<string, string>
  body_b64: string
  body_text?: string
}

const SDK_POINT = /^(view|resource|error|long_task|action|telemetry|browser_log),sdk_name=/gm

function expected(c: Capture, raw: Buffer): { names: string[]; times: string[] } {
  const text = (c.url.includes('encoding=deflate') ? zlib.inflateSync(raw) : raw).toString('utf8')
  if (text.startsWith('[')) {
    const arr = JSON.parse(text) as { measurement: string; time: number }[]
    return {
      names: arr.map((p) => p.measurement),
      times: arr.map((p) => String(BigInt(p.time) * 1_000_000n)),
    }
  }
  const names = [...text.matchAll(SDK_POINT)].map((m) => m[1])
  const times = [...text.matchAll(/ (\d{13})$/gm)].map((m) => String(BigInt(m[1]) * 1_000_000n))
  return { names, times }
}

for (const file of ['captured-lp.json', 'captured-json.json', 'captured-deflate.json']) {
  const captures: Capture[] = JSON.parse(
    fs.readFileSync(new URL(`rum-sdk-captures/${file}`, FIXTURES), 'utf8'),
  )
  captures.forEach((c, i) => {
    const writes = /^\/v1\/write\/(rum|logging)\?/.test(c.url)
    test(`${file} #${i} ${c.url}`, async () => {
      const { app, buffer } = testApp()
      const raw = Buffer.from(c.body_b64, 'base64')
      const res = await app.request(c.url, { method: c.method, headers: c.headers, body: raw })
      if (!writes) {
        // Session replay uploads (multipart) are not a write category of the spec.
        assert.equal(res.status, 404)
        return
      }
      assert.equal(res.status, 200, await res.text())
      const [batch] = buffer.take()
      const points = payloadShapes(batch.payload)
      const want = expected(c, raw)
      assert.ok(want.names.length > 0)
      assert.deepEqual(
        points.map((p) => p.measurement),
        want.names,
      )
      assert.deepEqual(
        points.map((p) => p.time),
        want.times,
      )
      for (const p of points) assert.equal(p.tags.app_id, 'appid_test123')
    })
  })
}
