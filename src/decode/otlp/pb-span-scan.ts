/**
 * ExportTraceServiceRequest on the protobuf wire (trace.proto) → the span table
 * (span-table.ts), for the trace transcoder: a hand-written reader over the body's bytes with
 * every length checked against its enclosing message, reading the fields `pb-traces.ts` reads
 * with the same rules (last value wins, unknown fields skipped by wire type).
 *
 * It declines (throws `DECLINE`) wherever the general reader would fail or the transcoder
 * would write something other than the general path: a wrong wire type, a truncated or
 * overlong field, span events or links, attribute values it does not take (pb-span-wire.ts).
 * The caller then takes the general path, which answers as it always did (its own error for a
 * malformed body).
 */
import { AttrTable, SpanTable } from './span-table.js'
import {
  cur,
  DECLINE,
  fixed32,
  keyValue,
  repeated1,
  skip,
  sub,
  tagAt,
  varint,
  want,
} from './pb-span-wire.js'

/** Resource (attributes = 1) or InstrumentationScope (name, version, attributes = 3). */
function attrsOf(t: AttrTable, scope: boolean, end: number, out: Int32Array, at: number): void {
  out[at] = t.n
  while (cur.p < end) {
    const tag = tagAt(end)
    const f = tag >>> 3
    if (scope ? f < 1 || f > 3 : f !== 1) {
      skip(tag & 7, end)
      continue
    }
    want(tag & 7, 2)
    const e = sub(end)
    if (f === (scope ? 3 : 1)) keyValue(t, e)
    cur.p = e
  }
  out[at + 1] = t.n
}

function status(s: SpanTable, i: number, end: number): void {
  s.cols.status[i] = 0
  while (cur.p < end) {
    const tag = tagAt(end)
    const f = tag >>> 3
    if (f === 2) {
      want(tag & 7, 2)
      cur.p = sub(end)
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
      c[`${name}A` as 'traceA'][i] = cur.p
      c[`${name}E` as 'traceE'][i] = e
    }
    cur.p = e
  } else skip(w, end)
}

function span(s: SpanTable, group: number, scope: number, end: number): void {
  const i = s.add(group, scope)
  s.cols.kvA[i] = s.attrs.n
  while (cur.p < end) {
    const tag = tagAt(end)
    spanField(s, i, tag >>> 3, tag & 7, end)
  }
  s.cols.kvE[i] = s.attrs.n
}

function scopeSpans(s: SpanTable, group: number, end: number): void {
  const scope = s.addScope()
  while (cur.p < end) {
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
    cur.p = e
  }
}

function resourceSpans(s: SpanTable, end: number): void {
  const group = s.addGroup()
  while (cur.p < end) {
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
    cur.p = e
  }
}

/** Fills `s` from the request; throws `DECLINE` where the general path must read it. */
export function scanTraces(body: Uint8Array, s: SpanTable): void {
  cur.b = body
  cur.p = 0
  s.reset()
  try {
    repeated1(body.length, (e) => resourceSpans(s, e))
  } finally {
    cur.b = EMPTY
  }
}

const EMPTY = new Uint8Array(0)
