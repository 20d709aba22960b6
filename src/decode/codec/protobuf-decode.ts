/**
 * Decodes a PBPoints body (schema in protobuf.ts) into points. Unknown fields are skipped, as
 * protobuf requires; a malformed body raises `PbError` with the byte offset.
 */
import {
  Kind,
  newPoint,
  type Field,
  type Point,
  type Scalar,
  type Warn,
} from '../../shared/point.js'
import { PbError, PbReader } from './pb-reader.js'
import { ARRAY_TYPE_URL, METRIC_TYPES } from './protobuf.js'

const KIND_BY_FIELD_NO: Record<number, Kind> = {
  2: Kind.INT,
  3: Kind.UINT,
  4: Kind.FLOAT,
  5: Kind.BOOL,
  6: Kind.BYTES,
  11: Kind.STRING,
}
const KIND_BY_BASIC_NO: Record<number, Kind> = {
  1: Kind.INT,
  2: Kind.UINT,
  3: Kind.FLOAT,
  4: Kind.BOOL,
  5: Kind.BYTES,
  6: Kind.STRING,
}

function readScalar(r: PbReader, kind: Kind, wire: number): Scalar {
  const expect = kind === Kind.FLOAT ? 1 : kind === Kind.BYTES || kind === Kind.STRING ? 2 : 0
  if (wire !== expect) throw new PbError(`wrong wire type ${wire} at offset ${r.pos}`)
  switch (kind) {
    case Kind.INT:
      return r.int64()
    case Kind.UINT:
      return r.uint64()
    case Kind.FLOAT:
      return r.double()
    case Kind.BOOL:
      return r.bool()
    case Kind.BYTES:
      return r.bytes().slice()
    default:
      return r.string()
  }
}

function readArray(r: PbReader, f: Field): void {
  let typeUrl = ''
  let items: Scalar[] = []
  let kind: Kind = Kind.NIL
  while (!r.done()) {
    const tag = r.uvarint()
    if (tag === (1 << 3) + 2) typeUrl = r.string()
    else if (tag === (2 << 3) + 2) {
      const arr = r.sub()
      while (!arr.done()) {
        const t = arr.uvarint()
        if (t >>> 3 !== 1 || (t & 7) !== 2) {
          arr.skip(t & 7)
          continue
        }
        const basic = arr.sub()
        const bt = basic.uvarint()
        const k = KIND_BY_BASIC_NO[bt >>> 3]
        if (k === undefined) throw new PbError(`unknown array element type at offset ${basic.pos}`)
        if (kind !== Kind.NIL && k !== kind) throw new PbError('array elements of mixed types')
        kind = k
        items.push(readScalar(basic, k, bt & 7))
      }
    } else r.skip(tag & 7)
  }
  if (typeUrl !== ARRAY_TYPE_URL)
    throw new PbError(`unsupported Any type ${JSON.stringify(typeUrl)}`)
  if (items.length === 0) items = []
  f.kind = Kind.ARRAY
  f.value = items.length ? { kind, items } : null
}

function readField(r: PbReader, p: Point): void {
  const f: Field = { key: '', kind: Kind.NIL, value: null }
  let isTag = false
  while (!r.done()) {
    const tag = r.uvarint()
    const no = tag >>> 3
    const wire = tag & 7
    if (no === 1 && wire === 2) f.key = r.string()
    else if (KIND_BY_FIELD_NO[no] !== undefined) {
      f.kind = KIND_BY_FIELD_NO[no]
      f.value = readScalar(r, f.kind, wire)
    } else if (no === 7 && wire === 2) readArray(r.sub(), f)
    else if (no === 8 && wire === 0) isTag = r.bool()
    else if (no === 9 && wire === 0) f.type = METRIC_TYPES[r.uvarint()] ?? 'UNSPECIFIED'
    else if (no === 10 && wire === 2) f.unit = r.string()
    else r.skip(wire)
  }
  if (isTag)
    p.tags.push({ key: f.key, value: typeof f.value === 'string' ? f.value : String(f.value) })
  else p.fields.push(f)
}

function readWarn(r: PbReader): Warn {
  const w: Warn = { type: '', message: '' }
  while (!r.done()) {
    const tag = r.uvarint()
    if (tag === (1 << 3) + 2) w.type = r.string()
    else if (tag === (2 << 3) + 2) w.message = r.string()
    else r.skip(tag & 7)
  }
  return w
}

function readPoint(r: PbReader): Point {
  const p = newPoint('')
  while (!r.done()) {
    const tag = r.uvarint()
    const no = tag >>> 3
    const wire = tag & 7
    if (no === 1 && wire === 2) p.name = r.string()
    else if (no === 2 && wire === 2) readField(r.sub(), p)
    else if (no === 3 && wire === 0) p.time = BigInt.asIntN(64, r.bigvarint())
    else if (no === 4 && wire === 2) (p.warns ??= []).push(readWarn(r.sub()))
    else r.skip(wire)
  }
  return p
}

/** Stops after `maxPoints + 1` points (the caller refuses the body; see parseLines). */
export function decodePoints(body: Uint8Array, maxPoints = Infinity): Point[] {
  const r = new PbReader(body)
  const points: Point[] = []
  while (!r.done()) {
    const tag = r.uvarint()
    if (tag === (1 << 3) + 2) {
      if (points.push(readPoint(r.sub())) > maxPoints) break
    } else r.skip(tag & 7)
  }
  return points
}
