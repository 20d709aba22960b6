/**
 * A span's `message` is written as text without building its objects (map-traces.ts): for any
 * attributes, the text is JSON.stringify of the objects the mapping used to build, and a span
 * with a trace state, events, links and dropped counts keeps the members in their order.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { jsonAttrs, jsonAttrsText } from '../../../src/decode/otlp/attrs.js'
import { mapTraces } from '../../../src/decode/otlp/map-traces.js'
import { emptySpan, type AnyValue, type KeyValue } from '../../../src/decode/otlp/model.js'
import { DEFAULT_OTLP_OPTIONS } from '../../../src/decode/otlp/options.js'
import { newStats } from '../../../src/decode/otlp/stats.js'

const scalar: fc.Arbitrary<AnyValue | null> = fc.oneof(
  fc.string({ unit: 'binary' }).map((v) => ({ k: 'str' as const, v })),
  fc.boolean().map((v) => ({ k: 'bool' as const, v })),
  fc.integer().map((v) => ({ k: 'int' as const, v })),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((v) => ({ k: 'int' as const, v })),
  fc.double().map((v) => ({ k: 'double' as const, v })),
  fc.uint8Array({ maxLength: 8 }).map((v) => ({ k: 'bytes' as const, v })),
  fc.constant(null),
)
const value = fc.oneof(
  scalar,
  fc.array(scalar, { maxLength: 3 }).map((v) => ({ k: 'array' as const, v })),
  fc
    .array(fc.record({ key: fc.string(), value: scalar }), { maxLength: 3 })
    .map((v) => ({ k: 'kvlist' as const, v })),
)
const attrs: fc.Arbitrary<KeyValue[]> = fc.array(
  fc.record({ key: fc.string({ unit: 'binary' }), value }),
  { maxLength: 6 },
)

test('attributes as text are JSON.stringify of their OTLP/JSON objects', () => {
  fc.assert(
    fc.property(attrs, (kvs) => {
      assert.equal(jsonAttrsText(kvs), JSON.stringify(jsonAttrs(kvs)))
    }),
    { numRuns: 2000 },
  )
})

test('a message keeps its members in order around the attributes written as text', () => {
  const span = {
    ...emptySpan(),
    traceId: new Uint8Array(16).fill(1),
    spanId: new Uint8Array(8).fill(2),
    name: 'op',
    start: 1_000_000n,
    end: 2_000_000n,
    traceState: 'k=v',
    attributes: [{ key: 'user.id', value: { k: 'str' as const, v: 'u"1' } }],
    droppedAttributes: 2,
    events: [{ time: 5n, name: 'e', attributes: [], dropped: 0 }],
    flags: 1,
  }
  const groups = [{ attributes: [], schemaUrl: '', scopes: [{ scope: null, items: [span] }] }]
  const [p] = mapTraces(groups, DEFAULT_OTLP_OPTIONS, newStats())
  const message = p.fields.find((f) => f.key === 'message')?.value
  assert.equal(
    message,
    JSON.stringify({
      traceState: 'k=v',
      attributes: [
        { key: 'user.id', value: { stringValue: 'u"1' } },
        { key: 'trace_id', value: { stringValue: '01'.repeat(16) } },
      ],
      droppedAttributesCount: 2,
      events: [{ timeUnixNano: '5', name: 'e' }],
      flags: 1,
    }),
  )
  const bare = { ...span, traceState: '', droppedAttributes: 0, events: [], flags: 0 }
  const [q] = mapTraces(
    [{ ...groups[0], scopes: [{ scope: null, items: [bare] }] }],
    DEFAULT_OTLP_OPTIONS,
    newStats(),
  )
  const text = q.fields.find((f) => f.key === 'message')?.value as string
  assert.equal(JSON.parse(text).attributes.length, 2)
  assert.ok(text.startsWith('{"attributes":['), text)
})
