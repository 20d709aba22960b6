/**
 * Decodes a PBPoints body (the format is owned by pbpoint-wire.ts) into points. Unknown fields are skipped, as
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
import * as W from './pbpoint-wire.js'

const { KIND_BY_BASIC_NO, KIND_BY_FIELD_NO, WIRE_I64, WIRE_LEN, WIRE_VARINT } = W
const T_ANY_TYPE_URL = W.tagOf(W.ANY_TYPE_URL, WIRE_LEN)
const T_ANY_VALUE = W.tagOf(W.ANY_VALUE, WIRE_LEN)
const T_WARN_TYPE = W.tagOf(W.WARN_TYPE, WIRE_LEN)
const T_WARN_MESSAGE = W.tagOf(W.WARN_MESSAGE, WIRE_LEN)

function readScalar(r: PbReader, kind: Kind, wire: number): Scalar {
  const expect =
    kind === Kind.FLOAT
      ? WIRE_I64
      : kind === Kind.BYTES || kind === Kind.STRING
        ? WIRE_LEN
        : WIRE_VARINT
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
    if (tag === T_ANY_TYPE_URL) typeUrl = r.string()
    else if (tag === T_ANY_VALUE) {
      const arr = r.sub()
      while (!arr.done()) {
        const t = arr.uvarint()
        if (t !== W.tagOf(W.ARRAY_ITEM, WIRE_LEN)) {
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
  if (typeUrl !== W.ARRAY_TYPE_URL)
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
    if (no === W.FIELD_KEY && wire === WIRE_LEN) f.key = r.string()
    else if (KIND_BY_FIELD_NO[no] !== undefined) {
      f.kind = KIND_BY_FIELD_NO[no]
      f.value = readScalar(r, f.kind, wire)
    } else if (no === W.FIELD_ANY && wire === WIRE_LEN) readArray(r.sub(), f)
    else if (no === W.FIELD_IS_TAG && wire === WIRE_VARINT) isTag = r.bool()
    else if (no === W.FIELD_TYPE && wire === WIRE_VARINT)
      f.type = W.METRIC_TYPES[r.uvarint()] ?? 'UNSPECIFIED'
    else if (no === W.FIELD_UNIT && wire === WIRE_LEN) f.unit = r.string()
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
    if (tag === T_WARN_TYPE) w.type = r.string()
    else if (tag === T_WARN_MESSAGE) w.message = r.string()
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
    if (no === W.POINT_NAME && wire === WIRE_LEN) p.name = r.string()
    else if (no === W.POINT_FIELD && wire === WIRE_LEN) readField(r.sub(), p)
    else if (no === W.POINT_TIME && wire === WIRE_VARINT) p.time = BigInt.asIntN(64, r.bigvarint())
    else if (no === W.POINT_WARN && wire === WIRE_LEN) (p.warns ??= []).push(readWarn(r.sub()))
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
    if (tag === W.T_POINTS_ARR) {
      if (points.push(readPoint(r.sub())) > maxPoints) break
    } else r.skip(tag & 7)
  }
  return points
}
