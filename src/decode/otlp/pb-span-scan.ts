/**
 * ExportTraceServiceRequest on the protobuf wire (trace.proto) → the span table
 * (span-table.ts), for the trace transcoder: a hand-written reader over the body's bytes with
 * every length checked against its enclosing message, reading the fields `pb-traces.ts` reads
 * with the same rules (last value wins, unknown fields skipped by wire type).
 *
 * It declines (throws `DECLINE`) wherever the general reader would fail or the transcoder
 * would write something other than the general path: a wrong wire type, a truncated or
 * overlong field, span events or links, attribute values other than strings, bools, doubles,
 * integers below 2^49 and arrays of those. The caller then takes the general path, which answers as it always
 * did (its own error for a malformed body).
 */
import {
  AttrTable,
  SpanTable,
  V_ARRAY,
  V_BOOL,
  V_DOUBLE,
  V_INT,
  V_NULL,
  V_STR,
} from './span-table.js'

export const DECLINE = { declined: true }

const f64 = new Float64Array(1)
const f64bytes = new Uint8Array(f64.buffer)

let b: Uint8Array = new Uint8Array(0)
let p = 0

/** A varint of at most 7 bytes (below 2^49); longer ones decline. */
function varint(end: number): number {
  let v = 0
  let mul = 1
  for (let i = 0; i < 7; i++) {
    if (p >= end) throw DECLINE
    const c = b[p++]
    v += (c & 0x7f) * mul
    if (c < 0x80) return v
    mul *= 128
  }
  throw DECLINE
}

/** A field's tag; one past 32 bits (a field number no message here has) declines. */
function tagAt(end: number): number {
  const t = varint(end)
  if (t > 0xffffffff) throw DECLINE
  return t
}

/** The end of the length-delimited field at `p` (then `p` is its start). */
function sub(end: number): number {
  const len = varint(end)
  const e = p + len
  if (e > end) throw DECLINE
  return e
}

function skip(wire: number, end: number): void {
  if (wire === 0) varint(end)
  else if (wire === 1) p += 8
  else if (wire === 2) p = sub(end)
  else if (wire === 5) p += 4
  else throw DECLINE
  if (p > end) throw DECLINE
}

function fixed32(end: number): number {
  if (p + 4 > end) throw DECLINE
  const v = (b[p] | (b[p + 1] << 8) | (b[p + 2] << 16) | (b[p + 3] << 24)) >>> 0
  p += 4
  return v
}

function want(wire: number, expected: number): void {
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
  while (p < end) {
    const tag = tagAt(end)
    const f = tag >>> 3
    const w = tag & 7
    if (f === 1 || (f === 5 && array)) {
      want(w, 2)
      const e = sub(end)
      const a = p
      if (f === 5) arrayItems(e, null)
      val.a = a
      val.e = p = e
      val.kind = f === 1 ? V_STR : V_ARRAY
    } else if (f === 2 || f === 3) {
      want(w, 0)
      val.num = varint(end)
      val.kind = f === 2 ? V_BOOL : V_INT
    } else if (f === 4) {
      want(w, 1)
      if (p + 8 > end) throw DECLINE
      for (let k = 0; k < 8; k++) f64bytes[k] = b[p + k]
      p += 8
      val.num = f64[0]
      val.kind = V_DOUBLE
    } else if (f >= 5 && f <= 7) throw DECLINE
    else skip(w, end)
  }
}

/** Each item (repeated AnyValue = 1) of the ArrayValue at `p`, a scalar, given to `visit`. */
function arrayItems(end: number, visit: ((first: boolean) => void) | null): void {
  let first = true
  while (p < end) {
    const tag = tagAt(end)
    if (tag >>> 3 !== 1) {
      skip(tag & 7, end)
      continue
    }
    want(tag & 7, 2)
    const e = sub(end)
    value(e, false)
    p = e
    visit?.(first)
    first = false
  }
}

/** Visits the items of an array value the scanner kept (`val` holds each item in turn). */
export function eachItem(body: Uint8Array, a: number, e: number, visit: (first: boolean) => void) {
  const saved = b
  b = body
  p = a
  try {
    arrayItems(e, visit)
  } finally {
    b = saved
  }
}

/** One KeyValue as a new row of the attribute table. */
function keyValue(t: AttrTable, end: number): void {
  const i = t.add()
  while (p < end) {
    const tag = tagAt(end)
    const f = tag >>> 3
    const w = tag & 7
    if (f === 1 || f === 2) {
      want(w, 2)
      const e = sub(end)
      if (f === 1) {
        t.keyA[i] = p
        t.keyE[i] = e
      } else {
        value(e, true)
        t.kind[i] = val.kind
        t.a[i] = val.a
        t.e[i] = val.e
        t.num[i] = val.num
      }
      p = e
    } else skip(w, end)
  }
}

/** Resource (attributes = 1) or InstrumentationScope (name, version, attributes = 3). */
function attrsOf(t: AttrTable, scope: boolean, end: number, out: Int32Array, at: number): void {
  out[at] = t.n
  while (p < end) {
    const tag = tagAt(end)
    const f = tag >>> 3
    if (scope ? f < 1 || f > 3 : f !== 1) {
      skip(tag & 7, end)
      continue
    }
    want(tag & 7, 2)
    const e = sub(end)
    if (f === (scope ? 3 : 1)) keyValue(t, e)
    p = e
  }
  out[at + 1] = t.n
}

function status(s: SpanTable, i: number, end: number): void {
  s.cols.status[i] = 0
  while (p < end) {
    const tag = tagAt(end)
    const f = tag >>> 3
    if (f === 2) {
      want(tag & 7, 2)
      p = sub(end)
    } else if (f === 3) {
      want(tag & 7, 0)
      s.cols.status[i] = varint(end)
    } else skip(tag & 7, end)
  }
}

/** fixed64 as two 32-bit halves into `hi[i]`, `lo[i]`. */
function fixed64(end: number, hi: Float64Array, lo: Float64Array, i: number): void {
  lo[i] = fixed32(end)
  hi[i] = fixed32(end)
}

const BYTES_COLS = [null, 'trace', 'span', 'state', 'parent', 'name'] as const

/** Span fields by number, with `pb-traces.ts`'s wire types; events and links decline. */
function spanField(s: SpanTable, i: number, f: number, w: number, end: number): void {
  const c = s.cols
  if (f === 7 || f === 8) {
    want(w, 1)
    if (f === 7) fixed64(end, s.startHi, s.startLo, i)
    else fixed64(end, s.endHi, s.endLo, i)
  } else if (f === 16) {
    want(w, 5)
    s.flags[i] = fixed32(end)
  } else if (f === 6 || f === 10 || f === 12 || f === 14) {
    want(w, 0)
    const n = varint(end)
    if (f === 6) c.kind[i] = n
    else if (f === 10) c.droppedAttrs[i] = n
    else if (f === 12) c.droppedEvents[i] = n
    else c.droppedLinks[i] = n
  } else if (f >= 1 && f <= 15) {
    want(w, 2)
    const e = sub(end)
    if (f === 11 || f === 13) throw DECLINE
    if (f === 9) keyValue(s.attrs, e)
    else if (f === 15) status(s, i, e)
    else if (f <= 5) {
      const name = BYTES_COLS[f] as string
      c[`${name}A` as 'traceA'][i] = p
      c[`${name}E` as 'traceE'][i] = e
    }
    p = e
  } else skip(w, end)
}

function span(s: SpanTable, group: number, scope: number, end: number): void {
  const i = s.add(group, scope)
  s.cols.kvA[i] = s.attrs.n
  while (p < end) {
    const tag = tagAt(end)
    spanField(s, i, tag >>> 3, tag & 7, end)
  }
  s.cols.kvE[i] = s.attrs.n
}

function scopeSpans(s: SpanTable, group: number, end: number): void {
  const scope = s.addScope()
  while (p < end) {
    const tag = tagAt(end)
    const f = tag >>> 3
    if (f !== 1 && f !== 2) {
      skip(tag & 7, end)
      continue
    }
    want(tag & 7, 2)
    const e = sub(end)
    if (f === 1) attrsOf(s.attrs, true, e, s.scopeKv, 2 * scope)
    else span(s, group, scope, e)
    p = e
  }
}

function resourceSpans(s: SpanTable, end: number): void {
  const group = s.addGroup()
  while (p < end) {
    const tag = tagAt(end)
    const f = tag >>> 3
    if (f < 1 || f > 3) {
      skip(tag & 7, end)
      continue
    }
    want(tag & 7, 2)
    const e = sub(end)
    if (f === 1) attrsOf(s.attrs, false, e, s.groupKv, 2 * group)
    else if (f === 2) scopeSpans(s, group, e)
    p = e
  }
}

/** Fills `s` from the request; throws `DECLINE` where the general path must read it. */
export function scanTraces(body: Uint8Array, s: SpanTable): void {
  b = body
  p = 0
  s.reset()
  try {
    const end = body.length
    while (p < end) {
      const tag = tagAt(end)
      if (tag >>> 3 !== 1) {
        skip(tag & 7, end)
        continue
      }
      want(tag & 7, 2)
      const e = sub(end)
      resourceSpans(s, e)
      p = e
    }
  } finally {
    b = EMPTY
  }
}

const EMPTY = new Uint8Array(0)
