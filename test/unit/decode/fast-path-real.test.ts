/**
 * The byte-level transcoder on data shaped like real hosts': metric string fields (dropped, with
 * the general path's warning counts), escaped names and strings, and the logging and object
 * categories' disabled and required keys. For any such body both paths give the same answer;
 * the benchmark's host corpus takes the fast path whole, plain and gzip'd, in every category.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import zlib from 'node:zlib'
import fc from 'fast-check'
import { makeHostBody } from '../../../bench/corpus-hosts.js'
import { decompress } from '../../../src/decode/decompress.js'
import { fromPayload } from '../../../src/errors.js'
import { tryFast } from '../../../src/ingest/fast.js'
import { processTask } from '../../../src/ingest/process.js'
import { plainTask, type DecodeTask, type Decoder } from '../../../src/ingest/protocol.js'
import type { Category } from '../../../src/shared/category.js'
import { testApp } from '../../helpers/app.js'

const CATEGORIES: Category[] = ['metric', 'logging', 'object', 'custom_object', 'network']

/** Both paths' answers are equal; true when the transcoder took the body. */
async function agree(t: DecodeTask): Promise<boolean> {
  const general = await processTask(t, null, null, false)
  assert.deepEqual(await processTask(t, null, null, true), general)
  const body = decompress(t.encoding, t.body, t.maxBodyBytes)
  return (await tryFast(t, body, null)) !== null
}

test('the host corpus, plain and gzip, takes the fast path in every category', async () => {
  for (let seed = 1; seed <= 12; seed++) {
    const text = makeHostBody(seed % 2 ? 1000 : 100, seed * 131)
    for (const category of CATEGORIES) {
      const o = { extraTags: [['host', 'h']] as [string, string][], now: 5n }
      assert.ok(await agree(plainTask(Buffer.from(text), category, o)), `${category} ${seed}`)
      const gz = plainTask(zlib.gzipSync(text), category, { ...o, encoding: 'gzip' })
      assert.ok(await agree(gz), `${category} gzip ${seed}`)
    }
  }
  const t = plainTask(Buffer.from(makeHostBody(100)), 'metric', { now: 5n })
  const r = await processTask(t)
  assert.ok(r.ok)
  assert.deepEqual(r.warnings, { invalid_field_value_type: 100 })
})

const word = fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/)
/** Names with escape pairs; now and then what sends a body to the general path. */
const rare = <T>(common: fc.Arbitrary<T>, odd: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 30, arbitrary: common }, { weight: 1, arbitrary: odd })
const escaped = rare(
  fc.stringMatching(/^[a-z](?:[a-z0-9_]|\\[ ,=])*$/),
  fc.stringMatching(/^[a-z](?:[a-z.]|\\[\\a]|")*$/),
)
const special = fc.constantFrom('source', 'date', 'class', 'status', 'name', 'host')
const key = fc.oneof({ weight: 4, arbitrary: word }, escaped, special)
const str = rare(
  fc.stringMatching(/^(?:[a-z ,=]|\\["\\])*$/),
  fc.stringMatching(/^(?:[a-z]|\\[n"]|é|\n)*$/),
).map((s) => `"${s}"`)
const value = fc.oneof(
  str,
  fc.integer({ min: -1e9, max: 1e9 }).map((v) => `${v}i`),
  fc.integer({ min: -1e6, max: 1e6 }).map((v) => String(v / 64)),
  rare(fc.constantFrom('true', 'F'), fc.constantFrom('"x"b', '1.5e3', 'tru')),
)

const realLine = fc
  .record({
    m: fc.oneof(word, escaped),
    tags: fc.uniqueArray(fc.tuple(key, fc.oneof(word, escaped)), {
      maxLength: 5,
      selector: (t) => t[0],
    }),
    fields: fc.uniqueArray(fc.tuple(key, value), {
      minLength: 1,
      maxLength: 6,
      selector: (t) => t[0],
    }),
    time: fc.option(fc.bigInt({ min: 1n, max: 2n ** 62n })),
  })
  .map(({ m, tags, fields, time }) => {
    const head = [m, ...tags.map(([k, v]) => `${k}=${v}`)].join(',')
    const line = `${head} ${fields.map(([k, v]) => `${k}=${v}`).join(',')}`
    return time === null ? line : `${line} ${time}`
  })

const extraTags = fc.constantFrom<[string, string][]>(
  [],
  [['host', 'h']],
  [['status', 's']],
  [['a b', 'c']],
)

test('escapes, strings, disabled and required keys in any category: the two paths agree', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(realLine, { minLength: 1, maxLength: 4 }),
      fc.constantFrom(...CATEGORIES),
      extraTags,
      async (ls, category, tags) => {
        await agree(plainTask(Buffer.from(ls.join('\n')), category, { extraTags: tags, now: 7n }))
      },
    ),
    { numRuns: 3000 },
  )
})

/** Telegraf-like metric lines: escaped tag values, a string field with escaped quotes. */
const telegrafLine = fc
  .record({
    tags: fc.uniqueArray(fc.tuple(word, fc.stringMatching(/^[a-z0-9]+(?:\\ [a-z0-9]+)?$/)), {
      maxLength: 8,
      selector: (t) => t[0],
    }),
    gov: fc.stringMatching(/^(?:[a-z]|\\")*$/),
    n: fc.integer({ min: 0, max: 1e6 }),
  })
  .map(({ tags, gov, n }) => {
    const head = ['cpu', ...tags.map(([k, v]) => `t_${k}=${v}`)].join(',')
    return `${head} usage=${n / 100},count=${n}i,governor="${gov}",online=true 1700000000000000000`
  })

test('Telegraf-like metric lines take the fast path and agree with the general one', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(telegrafLine, { minLength: 1, maxLength: 5 }), async (ls) => {
      const t = plainTask(Buffer.from(ls.join('\n')), 'metric', { extraTags: [['host', 'h']] })
      assert.ok(await agree(t), ls.join('\n'))
    }),
    { numRuns: 1500 },
  )
})

/** A span as line protocol the way the OTLP mapping writes it: start in µs has 16 digits. */
const spanLine = fc
  .record({
    id: fc.bigInt({ min: 1n, max: 2n ** 63n }),
    start: fc.bigInt({ min: 10n ** 15n, max: 2n ** 53n - 1n }),
    duration: fc.integer({ min: 0, max: 1e9 }),
    user: word,
  })
  .map(({ id, start, duration, user }) => {
    const tags = 'source=opentelemetry,service=s,status=ok,span_type=entry,operation=GET\\ /a'
    const attrs = `{\\"attributes\\":[{\\"key\\":\\"user.id\\",\\"value\\":{\\"stringValue\\":\\"${user}\\"}}]}`
    const fields = `trace_id="${id.toString(16)}",span_id="${id.toString(16)}",start=${start}i,duration=${duration}i,message="${attrs}"`
    return `opentelemetry,${tags} ${fields} ${start * 1000n}`
  })

test('tracing spans as line protocol take the fast path and agree with the general one', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(spanLine, { minLength: 1, maxLength: 5 }), async (ls) => {
      const t = plainTask(Buffer.from(ls.join('\n')), 'tracing', { extraTags: [['host', 'h']] })
      assert.ok(await agree(t), ls.join('\n'))
    }),
    { numRuns: 500 },
  )
})

test('a write of the host corpus: the same answer and the same kept bytes by both paths', async () => {
  const body = zlib.gzipSync(makeHostBody(300, 7))
  const request = async (fast: boolean) => {
    const decoder: Decoder = {
      async decode(t) {
        const r = await processTask(t, null, null, fast)
        if (!r.ok) throw fromPayload(r.error)
        return r
      },
    }
    const { app, buffer } = testApp({ hostTags: { host: 'h1' }, decoder })
    const headers = { 'Content-Encoding': 'gzip' }
    const res = await app.request('/v1/write/metric', { method: 'POST', headers, body })
    const kept = buffer.take()
    for (const k of kept) k.receivedAt = 0
    return { status: res.status, text: await res.text(), kept }
  }
  assert.deepEqual(await request(true), await request(false))
})
