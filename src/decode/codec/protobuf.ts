/**
 * The general encoder of PBPoints (the format is owned by `pbpoint-wire.ts`).
 *
 * Invariant: `encodePoint` writes one `arr` entry of PBPoints, so encoded points concatenate
 * into a valid PBPoints body.
 */
import { Kind, type ArrayValue, type Field, type Point, type Scalar } from '../../shared/point.js'
import { PbWriter } from './pb-writer.js'
import * as W from './pbpoint-wire.js'

export { ARRAY_TYPE_URL, METRIC_TYPES } from './pbpoint-wire.js'

function writeScalar(w: PbWriter, no: number, kind: Kind, v: Scalar): void {
  switch (kind) {
    case Kind.INT:
    case Kind.UINT:
      w.tag(no, W.WIRE_VARINT)
      w.int64(v as number | bigint)
      return
    case Kind.FLOAT:
      w.tag(no, W.WIRE_I64)
      w.double(v as number)
      return
    case Kind.BOOL:
      w.tag(no, W.WIRE_VARINT)
      w.uvarint(v ? 1 : 0)
      return
    case Kind.BYTES:
      w.tag(no, W.WIRE_LEN)
      w.bytes(v as Uint8Array)
      return
    case Kind.STRING:
      w.tag(no, W.WIRE_LEN)
      w.string(v as string)
  }
}

function writeArray(w: PbWriter, a: ArrayValue): void {
  const any = w.begin(W.FIELD_ANY, 1)
  w.tag(W.ANY_TYPE_URL, W.WIRE_LEN)
  w.string(W.ARRAY_TYPE_URL)
  const arr = w.begin(W.ANY_VALUE, 2)
  for (const item of a.items) {
    const basic = w.begin(W.ARRAY_ITEM, 1)
    writeScalar(w, W.BASIC_NO_BY_KIND[a.kind], a.kind, item)
    w.end(basic)
  }
  w.end(arr)
  w.end(any)
}

/** Field entries whose key and value bytes add up to at most this fit a one-byte length. */
const SHORT = 110

/**
 * A string tag or field of a short ASCII key and value, in one
 * pass with every length known up front: the same bytes `begin`/`string`/`end` write. False
 * (nothing kept) when a character is not ASCII or the entry is long.
 */
function shortString(w: PbWriter, key: string, value: string, tag: boolean) {
  const k = key.length
  const v = value.length
  if (k + v > SHORT) return false
  w.ensure(k + v + 8)
  const b = w.buf
  const at = w.pos
  b[at] = W.T_POINT_FIELD
  b[at + 2] = W.T_FIELD_KEY
  b[at + 3] = k
  let p = w.ascii(key, at + 4)
  if (p < 0) return false
  b[p] = W.T_FIELD_STRING
  b[p + 1] = v
  p = w.ascii(value, p + 2)
  if (p < 0) return false
  if (tag) {
    b[p++] = W.T_FIELD_IS_TAG
    b[p++] = 1
  }
  b[at + 1] = p - at - 2
  w.pos = p
  return true
}

export function writeField(w: PbWriter, f: Field): void {
  if (f.kind === Kind.STRING && !f.type && !f.unit) {
    if (shortString(w, f.key, f.value as string, false)) return
  }
  const m = w.begin(W.POINT_FIELD, 1)
  w.tag(W.FIELD_KEY, W.WIRE_LEN)
  w.string(f.key)
  if (f.kind === Kind.ARRAY) writeArray(w, f.value as ArrayValue)
  else writeScalar(w, W.FIELD_NO_BY_KIND[f.kind], f.kind, f.value as Scalar)
  const type = f.type ? W.METRIC_TYPES.indexOf(f.type as (typeof W.METRIC_TYPES)[number]) : 0
  if (type > 0) {
    w.tag(W.FIELD_TYPE, W.WIRE_VARINT)
    w.uvarint(type)
  }
  if (f.unit) {
    w.tag(W.FIELD_UNIT, W.WIRE_LEN)
    w.string(f.unit)
  }
  w.end(m)
}

export function writeTag(w: PbWriter, key: string, value: string): void {
  if (shortString(w, key, value, true)) return
  const m = w.begin(W.POINT_FIELD, 1)
  w.tag(W.FIELD_KEY, W.WIRE_LEN)
  w.string(key)
  w.tag(W.FIELD_STRING, W.WIRE_LEN)
  w.string(value)
  w.tag(W.FIELD_IS_TAG, W.WIRE_VARINT)
  w.uvarint(1)
  w.end(m)
}

/** Appends one PBPoints entry. Warnings are not uploaded: they are for echo and strict only. */
export function encodePoint(w: PbWriter, p: Point): void {
  const m = w.begin(W.POINTS_ARR, 2)
  w.tag(W.POINT_NAME, W.WIRE_LEN)
  w.string(p.name)
  for (const t of p.tags) writeTag(w, t.key, t.value)
  for (const f of p.fields) writeField(w, f)
  w.tag(W.POINT_TIME, W.WIRE_VARINT)
  w.int64(p.time ?? 0n)
  w.end(m)
}
