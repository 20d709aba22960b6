/**
 * Property and fuzz tests of the decoders: random bytes never make a parser throw anything but
 * its own coded errors (and never hang), and decode(encode(p)) == p for line protocol, the
 * protobuf wire form and PBJSON.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { echo, toLineProtocol } from '../../../src/decode/codec/echo.js'
import { PbWriter } from '../../../src/decode/codec/pb-writer.js'
import { encodePoint } from '../../../src/decode/codec/protobuf.js'
import { decodePoints } from '../../../src/decode/codec/protobuf-decode.js'
import { parseBody } from '../../../src/decode/parse-body.js'
import { processTask } from '../../../src/ingest/process.js'
import { plainTask } from '../../../src/ingest/protocol.js'
import { FerryError } from '../../../src/errors.js'
import type { Point } from '../../../src/shared/point.js'
import { point } from '../../helpers/arbitraries.js'

const CONTENT_TYPES = [
  '',
  'text/plain',
  'application/json',
  'application/protobuf; proto=com.guance.Point',
]

function sortPoint(p: Point): Point {
  const byKey = (a: { key: string }, b: { key: string }) =>
    a.key < b.key ? -1 : a.key > b.key ? 1 : 0
  const { hints: _hints, ...rest } = p
  return { ...rest, tags: [...p.tags].sort(byKey), fields: [...p.fields].sort(byKey), warns: null }
}

test('random bytes: parsers only raise coded errors', () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ maxLength: 300 }),
      fc.constantFrom(...CONTENT_TYPES),
      (bytes, ct) => {
        try {
          parseBody(ct, bytes)
        } catch (e) {
          assert.ok(e instanceof FerryError, String(e))
        }
      },
    ),
    { numRuns: 3000 },
  )
})

test('random line-protocol-like text: whole decode task never fails unexpectedly', async () => {
  const lpish = fc.stringMatching(/^[a-z=, "\\\n#0-9.iutfTF[\]b-]{0,80}$/)
  await fc.assert(
    fc.asyncProperty(
      lpish,
      fc.constantFrom('metric', 'logging', 'object'),
      async (text, category) => {
        const r = await processTask(
          plainTask(Buffer.from(text), category as 'metric', {
            echo: 'pbjson',
            now: 1n,
            extraTags: [['host', 'h']],
            maxBodyBytes: 1 << 20,
          }),
        )
        if (!r.ok) assert.notEqual(r.error.code, 'internalError', r.error.message)
      },
    ),
    { numRuns: 3000 },
  )
})

test('line protocol: parse(encode(p)) == p', () => {
  fc.assert(
    fc.property(fc.array(point, { minLength: 1, maxLength: 5 }), (points) => {
      const text = points.map(toLineProtocol).join('\n')
      const parsed = parseBody('', Buffer.from(text)).points
      assert.deepEqual(parsed.map(sortPoint), points.map(sortPoint))
    }),
    { numRuns: 1000 },
  )
})

test('protobuf: decode(encode(p)) == p', () => {
  fc.assert(
    fc.property(fc.array(point, { minLength: 1, maxLength: 5 }), (points) => {
      const w = new PbWriter(16)
      for (const p of points) encodePoint(w, p)
      assert.deepEqual(decodePoints(w.finish()).map(sortPoint), points.map(sortPoint))
    }),
    { numRuns: 1000 },
  )
})

test('PBJSON: decode(echo(p)) == p', () => {
  fc.assert(
    fc.property(fc.array(point, { minLength: 1, maxLength: 5 }), (points) => {
      const parsed = parseBody('application/json', Buffer.from(echo(points, 'pbjson'))).points
      assert.deepEqual(parsed.map(sortPoint), points.map(sortPoint))
    }),
    { numRuns: 500 },
  )
})
