/** fast-check generators for points that line protocol and protobuf can both represent. */
import fc from 'fast-check'
import { Kind, type Field, type Point, type Scalar } from '../../src/shared/point.js'

// Names: no control characters (line protocol has no escape for them) and no trailing
// backslash (it would escape the separator that follows).
const nameChars = fc
  .string({ minLength: 1, maxLength: 12, unit: 'grapheme' })
  .filter(
    (s) =>
      ![...s].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f) &&
      !s.endsWith('\\'),
  )
const measurement = nameChars.filter((s) => !s.startsWith('#') && !s.startsWith(' '))
const fieldKey = nameChars.filter((s) => !s.startsWith(' '))

const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })
const uint64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })
const norm = (b: bigint): number | bigint =>
  b >= -(2n ** 53n) + 1n && b <= 2n ** 53n - 1n ? Number(b) : b
const float = fc.double({ noNaN: true, noDefaultInfinity: true }).filter((v) => !Object.is(v, -0))

const scalars: Record<number, fc.Arbitrary<Scalar>> = {
  [Kind.INT]: int64.map(norm),
  [Kind.UINT]: uint64.map(norm),
  [Kind.FLOAT]: float,
  [Kind.BOOL]: fc.boolean(),
  [Kind.STRING]: fc.string({ maxLength: 20, unit: 'grapheme' }),
  [Kind.BYTES]: fc.uint8Array({ maxLength: 12 }),
}

const kind = fc.constantFrom(Kind.INT, Kind.UINT, Kind.FLOAT, Kind.BOOL, Kind.STRING, Kind.BYTES)

const field: fc.Arbitrary<Omit<Field, 'key'>> = fc.oneof(
  kind.chain((k) => scalars[k].map((value) => ({ kind: k as Kind, value }))),
  kind.chain((k) =>
    fc
      .array(scalars[k], { minLength: 1, maxLength: 4 })
      .map((items) => ({ kind: Kind.ARRAY as Kind, value: { kind: k as Kind, items } })),
  ),
)

export const point: fc.Arbitrary<Point> = fc
  .record({
    name: measurement,
    tags: fc.uniqueArray(fc.tuple(nameChars, nameChars), { maxLength: 4, selector: (t) => t[0] }),
    fields: fc.uniqueArray(fc.tuple(fieldKey, field), {
      minLength: 1,
      maxLength: 5,
      selector: (t) => t[0],
    }),
    time: fc.bigInt({ min: 1n, max: 9223372036854775806n }),
  })
  .filter((r) => !r.fields.some(([k]) => r.tags.some(([t]) => t === k)))
  .map((r) => ({
    name: r.name,
    tags: r.tags.map(([key, value]) => ({ key, value })),
    fields: r.fields.map(([key, f]) => ({ key, ...f })),
    time: r.time,
    warns: null,
  }))
