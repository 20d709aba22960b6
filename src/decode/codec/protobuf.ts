/**
 * PBPoint / PBPoints (the reference agent's `com.guance.Point` protobuf):
 *
 *   PBPoints { repeated PBPoint arr = 1 }
 *   PBPoint  { string name = 1; repeated Field fields = 2; int64 time = 3; repeated Warn warns = 4 }
 *   Field    { string key = 1; oneof { int64 i = 2; uint64 u = 3; double f = 4; bool b = 5;
 *              bytes d = 6; Any a = 7; string s = 11 }; bool is_tag = 8; MetricType type = 9;
 *              string unit = 10 }
 *   Any      { string type_url = 1; bytes value = 2 }   value = Array { repeated Basic arr = 1 }
 *   Basic    { oneof { int64 i = 1; uint64 u = 2; double f = 3; bool b = 4; bytes d = 5; string s = 6 } }
 *   Warn     { string type = 1; string message = 2 }
 *
 * Invariant: `encodePoint` writes one `arr` entry of PBPoints, so encoded points concatenate
 * into a valid PBPoints body.
 */
import { Kind, type ArrayValue, type Field, type Point, type Scalar } from '../../shared/point.js'
import { PbWriter } from './pb-writer.js'

export const ARRAY_TYPE_URL = 'type.googleapis.com/point.Array'
export const METRIC_TYPES = ['UNSPECIFIED', 'COUNT', 'RATE', 'GAUGE'] as const

/** Field numbers of a scalar inside Field (index by Kind) and inside Basic. */
const FIELD_NO = [0, 2, 3, 4, 5, 6, 11, 7]
const BASIC_NO = [0, 1, 2, 3, 4, 5, 6]

function writeScalar(w: PbWriter, no: number, kind: Kind, v: Scalar): void {
  switch (kind) {
    case Kind.INT:
    case Kind.UINT:
      w.tag(no, 0)
      w.int64(v as number | bigint)
      return
    case Kind.FLOAT:
      w.tag(no, 1)
      w.double(v as number)
      return
    case Kind.BOOL:
      w.tag(no, 0)
      w.uvarint(v ? 1 : 0)
      return
    case Kind.BYTES:
      w.tag(no, 2)
      w.bytes(v as Uint8Array)
      return
    case Kind.STRING:
      w.tag(no, 2)
      w.string(v as string)
  }
}

function writeArray(w: PbWriter, a: ArrayValue): void {
  const any = w.begin(7, 2)
  w.tag(1, 2)
  w.string(ARRAY_TYPE_URL)
  const arr = w.begin(2, 2)
  for (const item of a.items) {
    const basic = w.begin(1, 1)
    writeScalar(w, BASIC_NO[a.kind], a.kind, item)
    w.end(basic)
  }
  w.end(arr)
  w.end(any)
}

/** Field entries whose key and value bytes add up to at most this fit a one-byte length. */
const SHORT = 110

/**
 * A string tag or field (field number `no` of its value) of a short ASCII key and value, in one
 * pass with every length known up front: the same bytes `begin`/`string`/`end` write. False
 * (nothing kept) when a character is not ASCII or the entry is long.
 */
function shortString(w: PbWriter, key: string, value: string, valueTag: number, tag: boolean) {
  const k = key.length
  const v = value.length
  if (k + v > SHORT) return false
  w.ensure(k + v + 8)
  const b = w.buf
  const at = w.pos
  b[at] = 0x12
  b[at + 2] = 0x0a
  b[at + 3] = k
  let p = w.ascii(key, at + 4)
  if (p < 0) return false
  b[p] = valueTag
  b[p + 1] = v
  p = w.ascii(value, p + 2)
  if (p < 0) return false
  if (tag) {
    b[p++] = 0x40
    b[p++] = 1
  }
  b[at + 1] = p - at - 2
  w.pos = p
  return true
}

export function writeField(w: PbWriter, f: Field): void {
  if (f.kind === Kind.STRING && !f.type && !f.unit) {
    if (shortString(w, f.key, f.value as string, 0x5a, false)) return
  }
  const m = w.begin(2, 1)
  w.tag(1, 2)
  w.string(f.key)
  if (f.kind === Kind.ARRAY) writeArray(w, f.value as ArrayValue)
  else writeScalar(w, FIELD_NO[f.kind], f.kind, f.value as Scalar)
  const type = f.type ? METRIC_TYPES.indexOf(f.type as (typeof METRIC_TYPES)[number]) : 0
  if (type > 0) {
    w.tag(9, 0)
    w.uvarint(type)
  }
  if (f.unit) {
    w.tag(10, 2)
    w.string(f.unit)
  }
  w.end(m)
}

export function writeTag(w: PbWriter, key: string, value: string): void {
  if (shortString(w, key, value, 0x5a, true)) return
  const m = w.begin(2, 1)
  w.tag(1, 2)
  w.string(key)
  w.tag(11, 2)
  w.string(value)
  w.tag(8, 0)
  w.uvarint(1)
  w.end(m)
}

/** Appends one PBPoints entry. Warnings are not uploaded: they are for echo and strict only. */
export function encodePoint(w: PbWriter, p: Point): void {
  const m = w.begin(1, 2)
  w.tag(1, 2)
  w.string(p.name)
  for (const t of p.tags) writeTag(w, t.key, t.value)
  for (const f of p.fields) writeField(w, f)
  w.tag(3, 0)
  w.int64(p.time ?? 0n)
  w.end(m)
}
