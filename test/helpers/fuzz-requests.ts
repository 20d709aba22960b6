/**
 * fast-check generators of hostile HTTP requests for the agent: mutated line protocol and
 * JSON bodies, random bytes, compressed and broken-compressed bodies, decompression bombs,
 * random content types, encodings, query strings and paths.
 */
import zlib from 'node:zlib'
import fc from 'fast-check'
import { CATEGORY_NAMES } from '../../src/shared/category.js'
import { zstdWindowBomb } from './bombs.js'

export interface FuzzRequest {
  path: string
  query: [string, string][]
  headers: Record<string, string>
  body: Uint8Array
}

const GOOD_LP = Buffer.from('cpu,host=a usage=1.5,n=3i 1700000000000000000\nmem free=2u\n')
const GOOD_JSON = Buffer.from('[{"measurement":"m","tags":{"t":"v"},"fields":{"f":1}}]')

type Edit = [number, number, 'set' | 'cut' | 'ins']

/** Up to six byte edits: overwrite, truncate, insert. */
const edits = fc.array(
  fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('set', 'cut', 'ins')),
  { maxLength: 6 },
) as fc.Arbitrary<Edit[]>

function applyEdits(base: Uint8Array, list: Edit[]): Uint8Array {
  let b = Buffer.from(base)
  for (const [at, byte, op] of list) {
    const i = b.length ? at % b.length : 0
    if (op === 'set' && b.length) b[i] = byte
    else if (op === 'cut') b = b.subarray(0, i)
    else b = Buffer.concat([b.subarray(0, i), Buffer.from([byte]), b.subarray(i)])
  }
  return new Uint8Array(b)
}

const mutate = (base: Uint8Array) => edits.map((list) => applyEdits(base, list))

const COMPRESSED: [string, Uint8Array][] = [GOOD_LP, GOOD_JSON].flatMap((raw) => [
  ['gzip', zlib.gzipSync(raw)],
  ['deflate', zlib.deflateSync(raw)],
  ['deflate', zlib.deflateRawSync(raw)],
  ['br', zlib.brotliCompressSync(raw)],
])

const compressed: fc.Arbitrary<[string, Uint8Array]> = fc
  .tuple(fc.constantFrom(...COMPRESSED), edits)
  .map(([[enc, full], list]) => [enc, applyEdits(full, list)])

const plainBody = fc.oneof(
  mutate(GOOD_LP),
  mutate(GOOD_JSON),
  fc.uint8Array({ maxLength: 300 }),
  fc.string({ maxLength: 200 }).map((s) => new Uint8Array(Buffer.from(s))),
)

const encodedBody: fc.Arbitrary<[string, Uint8Array]> = fc.oneof(
  plainBody.map((b) => ['', b] as [string, Uint8Array]),
  compressed,
  fc.constant<[string, Uint8Array]>(['zstd', zstdWindowBomb(4)]),
  fc.tuple(fc.constantFrom('zstd', 'gzip', 'br', 'x-unknown', 'identity'), plainBody),
)

const contentType = fc.oneof(
  fc.constantFrom(
    '',
    'text/plain',
    'application/json',
    'application/pbjson; proto=com.guance.Point',
    'application/protobuf; proto=com.guance.Point',
    'application/x-protobuf',
  ),
  fc.string({ maxLength: 40 }),
)

const param = fc.oneof(
  fc.tuple(
    fc.constantFrom(
      'precision',
      'encoding',
      'echo',
      'dry',
      'strict',
      'input',
      'source',
      'storage_index',
    ),
    fc.oneof(
      fc.constantFrom('', 'n', 'ms', 's', 'h', 'lp', 'json', 'pbjson', 'gzip', 'zstd', '-'),
      fc.string({ maxLength: 12 }),
    ),
  ),
  fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })),
)

const path = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...CATEGORY_NAMES).map((c) => `/v1/write/${c}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('/v1/lasterror', '/v1/ping', '/v1/ntp'),
  },
  {
    weight: 1,
    arbitrary: fc.string({ maxLength: 20 }).map((s) => `/v1/write/${encodeURIComponent(s)}`),
  },
)

export const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc
  .record({
    path,
    query: fc.array(param, { maxLength: 4 }),
    body: encodedBody,
    contentType,
    asHeader: fc.boolean(),
  })
  .map((r) => {
    const [encoding, body] = r.body
    const headers: Record<string, string> = {}
    if (r.contentType) headers['Content-Type'] = r.contentType
    const query = [...r.query]
    if (encoding && r.asHeader) headers['Content-Encoding'] = encoding
    else if (encoding) query.push(['encoding', encoding])
    return { path: r.path, query, headers, body }
  })

export function requestUrl(r: FuzzRequest): string {
  return `${r.path}?${new URLSearchParams(r.query).toString()}`
}
