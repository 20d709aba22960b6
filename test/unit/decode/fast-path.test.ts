/**
 * The byte-level transcoder against the general path: for any body and any task options, the
 * two give the same answer (points, payload bytes, echo, warnings, errors); the line protocol
 * corpus and the HTTP case corpus agree through both; and clean bodies do take the fast path.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { test } from 'node:test'
import zlib from 'node:zlib'
import fc from 'fast-check'
import { fromPayload } from '../../../src/errors.js'
import { toLineProtocol } from '../../../src/decode/codec/echo.js'
import { tryFast } from '../../../src/ingest/fast.js'
import { processTask } from '../../../src/ingest/process.js'
import { plainTask, type DecodeTask, type Decoder } from '../../../src/ingest/protocol.js'
import { parsePrecision } from '../../../src/decode/precision.js'
import type { Category } from '../../../src/shared/category.js'
import { FIXTURES, testApp } from '../../helpers/app.js'
import { point } from '../../helpers/arbitraries.js'

const CATEGORIES: Category[] = ['metric', 'network', 'logging', 'object', 'security', 'tracing']

async function bothAgree(t: DecodeTask): Promise<boolean> {
  const general = await processTask(t, null, null, false)
  const fast = await processTask(t, null, null, true)
  assert.deepEqual(fast, general)
  return (await tryFast(t, t.body, null)) !== null
}

const word = fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/)
const dotted = fc.oneof(word, fc.stringMatching(/^[a-z_][a-z0-9_.]{0,8}$/))
const num = fc.oneof(
  fc.integer({ min: -1e15, max: 1e15 }).map((v) => `${v}i`),
  fc.integer({ min: -1e6, max: 1e6 }).map(String),
  fc.integer({ min: 0, max: 1e15 }).map((v) => `${v}u`),
  // 16 and 17 digits, on both sides of 2^53 (a span's start in µs has 16).
  fc.bigInt({ min: -(10n ** 17n), max: 10n ** 17n }).map((v) => `${v}i`),
  fc.bigInt({ min: 2n ** 53n - 5n, max: 2n ** 53n + 5n }).map((v) => `${v}u`),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc.stringMatching(/^-?[0-9]{1,17}(\.[0-9]{0,17})?$/),
  fc.constantFrom('t', 'F', 'true', 'False', 'FALSE', '"ok"', '""', '.5', '1.', '-0', '-0i'),
)
const cleanLine = fc
  .record({
    m: dotted,
    tags: fc.uniqueArray(fc.tuple(dotted, word), { maxLength: 6, selector: (t) => t[0] }),
    fields: fc.uniqueArray(fc.tuple(fc.oneof(word, dotted), num), {
      minLength: 1,
      maxLength: 8,
      selector: (t) => t[0],
    }),
    time: fc.option(fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }).map(String)),
  })
  .map(({ m, tags, fields, time }) => {
    const head = [m, ...tags.map(([k, v]) => `${k}=${v}`)].join(',')
    const body = fields.map(([k, v]) => `${k}=${v}`).join(',')
    return time === null ? `${head} ${body}` : `${head} ${body} ${time}`
  })

const options = fc.record({
  category: fc.constantFrom(...CATEGORIES),
  precision: fc.constantFrom(null, 'n', 'u', 'ms', 's', 'm', 'h'),
  extraTags: fc.constantFrom(
    [],
    [['host', 'h']],
    [
      ['host', 'h'],
      ['region', 'eu'],
    ],
  ),
  maxPoints: fc.constantFrom(250_000, 2),
})

type Options = typeof options extends fc.Arbitrary<infer T> ? T : never

function task(text: string, o: Options): DecodeTask {
  return plainTask(Buffer.from(text), o.category, {
    precision: o.precision as DecodeTask['precision'],
    extraTags: o.extraTags.map(([k, v]) => [k, v] as [string, string]),
    maxPoints: o.maxPoints,
    now: 1_700_000_000_000_000_000n,
  })
}

test('generated lines, near and far from the common case: the two paths agree', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(cleanLine, { minLength: 1, maxLength: 5 }),
      options,
      async (ls, o) => {
        await bothAgree(task(ls.join('\n'), o))
      },
    ),
    { numRuns: 3000 },
  )
})

/** Not an integer (`i`/`u`) past 2^53 - 1, which the fast path leaves to the general one. */
function safeInteger(v: string): boolean {
  const m = /^-?(\d+)[iu]$/.exec(v)
  return m === null || BigInt(m[1]) <= BigInt(Number.MAX_SAFE_INTEGER)
}

/** Lines the fast path must take: distinct plain keys, plain numbers and booleans. */
const commonLine = fc
  .record({
    m: word,
    tags: fc.uniqueArray(fc.tuple(word, dotted), { maxLength: 8, selector: (t) => t[0] }),
    fields: fc.uniqueArray(
      fc.tuple(
        word,
        num.filter((v) => !/["eE]/.test(v) && safeInteger(v)),
      ),
      {
        minLength: 1,
        maxLength: 10,
        selector: (t) => t[0],
      },
    ),
    time: fc.oneof(
      fc.bigInt({ min: 1n, max: 9_000_000_000n }),
      fc.bigInt({ min: 10n ** 12n, max: 9_000_000_000_000n }),
      fc.bigInt({ min: 10n ** 18n, max: 2n ** 62n }),
    ),
  })
  .map(({ m, tags, fields, time }) => {
    const head = [m, ...tags.map(([k, v]) => `t${k}=${v}`)].join(',')
    return `${head} ${fields.map(([k, v]) => `f${k}=${v}`).join(',')} ${time}`
  })

test('common-case bodies take the fast path and agree with the general one', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(commonLine, { minLength: 1, maxLength: 5 }),
      fc.constantFrom<Category>('metric', 'network'),
      fc.constantFrom(null, 'n'),
      async (ls, category, precision) => {
        const t = plainTask(Buffer.from(ls.join('\n') + '\n'), category, {
          precision: precision as DecodeTask['precision'],
          extraTags: [['host', 'h']],
          now: 5n,
        })
        assert.ok(await bothAgree(t), ls.join('\n'))
      },
    ),
    { numRuns: 2000 },
  )
})

test('a repeated key among many, wherever it falls, sends the body to the general path', async () => {
  const tags = Array.from({ length: 30 }, (_, i) => `t${i}=v`)
  const fields = Array.from({ length: 33 }, (_, i) => `f${i}=${i}i`)
  const distinct = `m,${tags.join(',')} ${fields.join(',')} 5`
  assert.ok(await bothAgree(plainTask(Buffer.from(distinct), 'metric')))
  for (const [a, b] of [
    ['t0', 't29'],
    ['t3', 'f32'],
    ['f0', 'f32'],
    ['f31', 'f32'],
  ]) {
    const line = distinct.replace(`${b}=`, `${a}=`)
    assert.equal(await bothAgree(plainTask(Buffer.from(line), 'metric')), false, line)
  }
})

test('points of every kind, and line-protocol-like noise: the two paths agree', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(point, { minLength: 1, maxLength: 4 }), options, async (ps, o) => {
      await bothAgree(task(ps.map(toLineProtocol).join('\n'), o))
    }),
    { numRuns: 1500 },
  )
  const lpish = fc.stringMatching(/^[a-z=, "\\\n\r#0-9.iutfTFeE[\]b-]{0,80}$/)
  await fc.assert(
    fc.asyncProperty(lpish, options, async (text, o) => {
      await bothAgree(task(text, o))
    }),
    { numRuns: 4000 },
  )
})

interface LpCase {
  id: string
  input: string
  precision?: string
  default_time: string
}

test('every case of the line protocol corpus: the two paths agree', async () => {
  const cases: LpCase[] = JSON.parse(fs.readFileSync(new URL('lp-cases.json', FIXTURES), 'utf8'))
  let fast = 0
  for (const c of cases) {
    const precision = c.precision === 'dyn' ? null : parsePrecision(c.precision ?? 'n')!
    for (const category of ['metric', 'network'] as Category[]) {
      const t = plainTask(Buffer.from(c.input), category, {
        precision,
        now: BigInt(c.default_time),
        extraTags: [['host', 'h']],
      })
      if (await bothAgree(t)) fast++
    }
  }
  assert.ok(fast > 0)
})

interface HttpCase {
  name: string
  method: string
  url: string
  headers: Record<string, string>
  body: string
  content_encoding?: string
}

/** The general path only, as the decoder of a test app. */
const generalDecoder: Decoder = {
  async decode(task) {
    const r = await processTask(task, null, null, false)
    if (!r.ok) throw fromPayload(r.error)
    return r
  },
}

async function answer(c: HttpCase, decoder?: Decoder) {
  const { app, buffer } = testApp({ hostTags: { host: 'my-testing' }, decoder })
  const headers: Record<string, string> = { ...c.headers }
  let body: Uint8Array = Buffer.from(c.body)
  if (c.content_encoding === 'gzip') {
    body = zlib.gzipSync(body)
    headers['Content-Encoding'] = 'gzip'
  }
  const res = await app.request(c.url, { method: c.method, headers, body })
  return { status: res.status, text: await res.text(), kept: buffer.take() }
}

test('every case of the HTTP corpus: the same answer and the same kept bytes by both paths', async (t) => {
  const doc = JSON.parse(fs.readFileSync(new URL('datakit-http-cases.json', FIXTURES), 'utf8'))
  const cases = (doc.cases as HttpCase[]).filter(
    (c) => !c.body.startsWith('<protobuf') && [undefined, 'gzip'].includes(c.content_encoding),
  )
  assert.ok(cases.length > 10)
  const realNow = Date.now
  Date.now = () => 1_700_000_000_000 // points without a time get the same receive time twice
  t.after(() => (Date.now = realNow))
  for (const c of cases) {
    const general = await answer(c, generalDecoder)
    const fast = await answer(c)
    for (const k of [...general.kept, ...fast.kept]) k.receivedAt = 0
    assert.deepEqual(fast, general, c.name)
  }
})
