/** Converts decoded points to the JSON shape of test/fixtures/lp-cases.json for comparison. */
import { decodePoints } from '../../src/decode/codec/protobuf-decode.js'
import { Kind, type ArrayValue, type Point, type Scalar } from '../../src/shared/point.js'

type Typed = Record<string, unknown>

function scalar(kind: Kind, v: Scalar): Typed {
  switch (kind) {
    case Kind.INT:
      return { int: String(v) }
    case Kind.UINT:
      return { uint: String(v) }
    case Kind.FLOAT:
      return { float: v }
    case Kind.BOOL:
      return { bool: v }
    case Kind.BYTES:
      return { binary: Buffer.from(v as Uint8Array).toString('base64') }
    default:
      return { string: v }
  }
}

export function caseShape(p: Point) {
  const fields: Record<string, Typed> = {}
  for (const f of p.fields) {
    if (f.kind === Kind.ARRAY) {
      const a = f.value as ArrayValue
      fields[f.key] = { array: a.items.map((x) => scalar(a.kind, x)) }
    } else fields[f.key] = scalar(f.kind, f.value as Scalar)
  }
  const tags: Record<string, string> = {}
  for (const t of p.tags) tags[t.key] = t.value
  return { measurement: p.name, tags, fields, time: String(p.time) }
}

export function payloadShapes(payload: Uint8Array) {
  return decodePoints(payload).map(caseShape)
}
