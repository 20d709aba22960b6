/**
 * The wire primitives of the trace transcoder's reader (pb-span-scan.ts) and its attribute
 * values: varints, lengths, skips and AnyValue/KeyValue into the attribute table, every read
 * bounded by the end of its enclosing message. Anything the general reader (`pb-common.ts`)
 * would refuse, or the transcoder does not write (nested arrays, kvlists, bytes, integers past
 * 2^49 or negative), throws `DECLINE`.
 */
import { AttrTable, V_ARRAY, V_BOOL, V_DOUBLE, V_INT, V_NULL, V_STR } from './span-table.js'

export const DECLINE = { declined: true }

const f64 = new Float64Array(1)
const f64bytes = new Uint8Array(f64.buffer)

/** The body being read and the position in it (one reader per thread, never re-entered). */
export const cur = { b: new Uint8Array(0) as Uint8Array, p: 0 }

/** A varint of at most 7 bytes (below 2^49); longer ones decline. */
export function varint(end: number): number {
  let v = 0
  let mul = 1
  for (let i = 0; i < 7; i++) {
    if (cur.p >= end) throw DECLINE
    const c = cur.b[cur.p++]
    v += (c & 0x7f) * mul
    if (c < 0x80) return v
    mul *= 128
  }
  throw DECLINE
}

/** A field's tag; one past 32 bits (a field number no message here has) declines. */
export function tagAt(end: number): number {
  const t = varint(end)
  if (t > 0xffffffff) throw DECLINE
  return t
}

/** The end of the length-delimited field at `cur.p` (then `cur.p` is its start). */
export function sub(end: number): number {
  const len = varint(end)
  const e = cur.p + len
  if (e > end) throw DECLINE
  return e
}

export function skip(wire: number, end: number): void {
  if (wire === 0) varint(end)
  else if (wire === 1) cur.p += 8
  else if (wire === 2) cur.p = sub(end)
  else if (wire === 5) cur.p += 4
  else throw DECLINE
  if (cur.p > end) throw DECLINE
}

export function fixed32(end: number): number {
  if (cur.p + 4 > end) throw DECLINE
  const v =
    (cur.b[cur.p] |
      (cur.b[cur.p + 1] << 8) |
      (cur.b[cur.p + 2] << 16) |
      (cur.b[cur.p + 3] << 24)) >>>
    0
  cur.p += 4
  return v
}

export function want(wire: number, expected: number): void {
  if (wire !== expected) throw DECLINE
}

/** The last value read by `value`: kind, string range, number. */
export const val = { kind: V_NULL, a: 0, e: 0, num: 0 }

/**
 * AnyValue: the last of its oneof members wins, as in `pb-common.ts`. An ArrayValue (only where
 * `array`) is kept as its range, once each item is found to be a scalar; other values decline.
 */
function value(end: number, array: boolean): void {
  val.kind = V_NULL
  while (cur.p < end) {
    const tag = tagAt(end)
    const f = tag >>> 3
    const w = tag & 7
    if (f === 1 || (f === 5 && array)) {
      want(w, 2)
      const e = sub(end)
      const a = cur.p
      if (f === 5) arrayItems(e, null)
      val.a = a
      val.e = cur.p = e
      val.kind = f === 1 ? V_STR : V_ARRAY
    } else if (f === 2 || f === 3) {
      want(w, 0)
      val.num = varint(end)
      val.kind = f === 2 ? V_BOOL : V_INT
    } else if (f === 4) {
      want(w, 1)
      if (cur.p + 8 > end) throw DECLINE
      for (let k = 0; k < 8; k++) f64bytes[k] = cur.b[cur.p + k]
      cur.p += 8
      val.num = f64[0]
      val.kind = V_DOUBLE
    } else if (f >= 5 && f <= 7) throw DECLINE
    else skip(w, end)
  }
}

/**
 * Each message of repeated field 1 (the request's ResourceSpans, an ArrayValue's items) up to
 * `end`, given to `read` with its end; other fields are skipped.
 */
export function repeated1(end: number, read: (e: number) => void): void {
  while (cur.p < end) {
    const tag = tagAt(end)
    if (tag >>> 3 !== 1) {
      skip(tag & 7, end)
      continue
    }
    want(tag & 7, 2)
    const e = sub(end)
    read(e)
    cur.p = e
  }
}

/** Each item of the ArrayValue at `cur.p`, a scalar, given to `visit`. */
function arrayItems(end: number, visit: ((first: boolean) => void) | null): void {
  let first = true
  repeated1(end, (e) => {
    value(e, false)
    cur.p = e
    visit?.(first)
    first = false
  })
}

/** Visits the items of an array value the scanner kept (`val` holds each item in turn). */
export function eachItem(body: Uint8Array, a: number, e: number, visit: (first: boolean) => void) {
  const saved = cur.b
  cur.b = body
  cur.p = a
  try {
    arrayItems(e, visit)
  } finally {
    cur.b = saved
  }
}

/** One KeyValue as a new row of the attribute table. */
export function keyValue(t: AttrTable, end: number): void {
  const i = t.add()
  while (cur.p < end) {
    const tag = tagAt(end)
    const f = tag >>> 3
    const w = tag & 7
    if (f === 1 || f === 2) {
      want(w, 2)
      const e = sub(end)
      if (f === 1) {
        t.keyA[i] = cur.p
        t.keyE[i] = e
      } else {
        value(e, true)
        t.kind[i] = val.kind
        t.a[i] = val.a
        t.e[i] = val.e
        t.num[i] = val.num
      }
      cur.p = e
    } else skip(w, end)
  }
}
