/**
 * Writes a ddtrace fixture (test/fixtures/ddtrace/, ids and times as decimal strings) the three
 * ways tracers send it: v0.3 JSON with the ids as plain numbers, v0.4 msgpack maps with 64-bit
 * integers, and v0.5 msgpack arrays over a string table.
 */
import { encode } from '@msgpack/msgpack'

export interface FixtureSpan {
  service: string
  name: string
  resource: string
  trace_id: string
  span_id: string
  parent_id: string
  start: string
  duration: string
  error: number
  meta: Record<string, string>
  metrics: Record<string, number>
  type: string
}

export type FixtureTraces = FixtureSpan[][]

const BIG = ['trace_id', 'span_id', 'parent_id', 'start', 'duration'] as const

export function toJson(traces: FixtureTraces): string {
  // The digits go in unquoted: JSON numbers beyond 2^53, as a tracer writes them.
  return JSON.stringify(traces).replace(
    /"(trace_id|span_id|parent_id|start|duration)":"(-?\d+)"/g,
    '"$1":$2',
  )
}

export function toV04(traces: FixtureTraces): Uint8Array {
  const spans = traces.map((t) =>
    t.map((s) => {
      const out: Record<string, unknown> = { ...s }
      for (const k of BIG) out[k] = BigInt(s[k])
      return out
    }),
  )
  return encode(spans, { useBigInt64: true })
}

// The library writes no JS Map, and v0.5 maps are keyed by integers: containers are written
// here with 32-bit headers (valid msgpack), their values by the library.
const one = (v: unknown) => encode(v, { useBigInt64: true })
function header(type: number, n: number): Uint8Array {
  const b = Buffer.alloc(5)
  b[0] = type
  b.writeUInt32BE(n, 1)
  return b
}
const arr = (items: Uint8Array[]) => Buffer.concat([header(0xdd, items.length), ...items])
const map = (pairs: [number, Uint8Array][]) =>
  Buffer.concat([header(0xdf, pairs.length), ...pairs.flatMap(([k, v]) => [one(k), v])])

export function toV05(traces: FixtureTraces): Uint8Array {
  const dict: string[] = ['']
  const at = (s: string) => {
    let i = dict.indexOf(s)
    if (i < 0) i = dict.push(s) - 1
    return i
  }
  const span = (s: FixtureSpan) =>
    arr([
      one(at(s.service)),
      one(at(s.name)),
      one(at(s.resource)),
      ...BIG.map((k) => one(BigInt(s[k]))),
      one(s.error),
      map(Object.entries(s.meta).map(([k, v]) => [at(k), one(at(v))])),
      map(Object.entries(s.metrics).map(([k, v]) => [at(k), one(v)])),
      one(at(s.type)),
    ])
  const spans = arr(traces.map((t) => arr(t.map(span))))
  return Buffer.concat([header(0xdd, 2), one(dict), spans])
}
