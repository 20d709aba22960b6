/**
 * Fuzzing the ddtrace decoder (fast-check): mutated and truncated v0.4/v0.5 msgpack and v0.3
 * JSON requests either decode or fail with the receiver's coded errors, never anything else;
 * random bytes through the app get a JSON refusal with a known code below 500; and random
 * msgpack given to a real decode worker pool never kills a worker. FUZZ_RUNS sets the number
 * of runs per property.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import fc from 'fast-check'
import { encode } from '@msgpack/msgpack'
import { FerryError } from '../../../src/errors.js'
import { decodeDdtrace } from '../../../src/decode/ddtrace/decode.js'
import type { DdtraceVersion } from '../../../src/decode/ddtrace/model.js'
import { DEFAULT_DDTRACE_OPTIONS } from '../../../src/decode/ddtrace/options.js'
import { processTask } from '../../../src/ingest/process.js'
import { plainTask } from '../../../src/ingest/protocol.js'
import { testApp } from '../../helpers/app.js'
import { assertHostileBodiesRefused } from '../../helpers/hostile.js'
import { toJson, toV04, toV05, type FixtureTraces } from '../../helpers/ddtrace.js'

const RUNS = Number(process.env.FUZZ_RUNS ?? 2_000)
const EXPECTED = new Set(['invalidDdtrace', 'ddtraceLimitExceeded', 'tooManyPoints'])
const traces: FixtureTraces = JSON.parse(
  readFileSync(new URL('../../fixtures/ddtrace/trace.json', import.meta.url), 'utf8'),
).traces
const OPTIONS = { ...DEFAULT_DDTRACE_OPTIONS, maxEntries: 1000, maxStringBytes: 4096 }

function decodeOrRefuse(version: DdtraceVersion, ct: string, body: Uint8Array): void {
  try {
    decodeDdtrace(version, ct, body, OPTIONS)
  } catch (e) {
    assert.ok(e instanceof FerryError, `not a FerryError: ${(e as Error)?.stack}`)
    assert.ok(EXPECTED.has(e.code), `${e.code}: ${e.message}`)
  }
}

const SOURCES: [DdtraceVersion, string, Uint8Array][] = [
  ['v0.4', 'application/msgpack', toV04(traces)],
  ['v0.5', 'application/msgpack', toV05(traces)],
  ['v0.3', 'application/json', Buffer.from(toJson(traces))],
  ['v0.3', 'application/octet-stream', toV04(traces)],
]

const mutation = fc.record({
  at: fc.nat(),
  bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }),
  cut: fc.boolean(),
})

for (const [version, ct, src] of SOURCES) {
  test(`${version} ${ct}: mutated and truncated requests decode or get a coded refusal`, () => {
    fc.assert(
      fc.property(mutation, (m) => {
        const at = m.at % src.length
        const body = m.cut
          ? Buffer.concat([src.subarray(0, at), m.bytes])
          : Buffer.concat([src.subarray(0, at), m.bytes, src.subarray(at + m.bytes.length)])
        decodeOrRefuse(version, ct, body)
        decodeOrRefuse(version, ct, src.subarray(0, at))
      }),
      { numRuns: RUNS },
    )
  })
}

// Any msgpack value at all, nested: the decoder must refuse each shape it does not read.
const anyValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }),
    fc.boolean(),
    fc.constant(null),
    fc.uint8Array({ maxLength: 8 }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string(), tie('value'), { maxKeys: 4 }),
  ),
})).value

test('random msgpack values decode or get a coded refusal on every route', () => {
  fc.assert(
    fc.property(anyValue, fc.constantFrom<DdtraceVersion>('v0.3', 'v0.4', 'v0.5'), (v, ver) => {
      let body: Uint8Array
      try {
        body = encode(v, { useBigInt64: true })
      } catch {
        return // values the encoder itself refuses (a bigint past uint64)
      }
      decodeOrRefuse(ver, 'application/msgpack', body)
    }),
    { numRuns: RUNS },
  )
})

test('hostile bodies through the app get a JSON refusal with a known code', async () => {
  await assertHostileBodiesRefused(testApp().app, {
    paths: ['/v0.3/traces', '/v0.4/traces', '/v0.5/traces'],
    types: ['application/msgpack', 'application/json', 'text/plain'],
    method: 'PUT',
    runs: Math.min(RUNS, 500),
  })
})

test('random and truncated msgpack in the decode task comes back as an error, never a throw', async () => {
  await fc.assert(
    fc.asyncProperty(fc.uint8Array({ maxLength: 512 }), fc.nat(), async (noise, at) => {
      const src = toV05(traces)
      for (const body of [noise, src.subarray(0, at % src.length)]) {
        const task = plainTask(body, 'tracing', {
          contentType: 'application/msgpack',
          precision: 'n',
          ddtrace: { version: 'v0.5', options: OPTIONS },
        })
        const out = await processTask(task)
        if (!out.ok) assert.ok(EXPECTED.has(out.error.code), out.error.message)
      }
    }),
    { numRuns: Math.min(RUNS, 500) },
  )
})
