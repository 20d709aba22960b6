/**
 * The writing half of the trace transcoder: one span's entries (span-entries.ts) as one
 * PBPoints entry, the bytes `encodePoint` writes for the general path's point (tags in order,
 * then fields, then the time; minimal length prefixes), and its `message` as the text
 * `messageOf` gives, written straight into the output.
 */
import type { Out } from '../lp/fast-writer.js'
import * as W from '../codec/pbpoint-wire.js'
import {
  E_BOOL,
  E_CONST,
  E_DIGITS,
  E_FLOAT,
  E_HEX,
  E_INT,
  E_MESSAGE,
  E_RANGE,
} from './span-entries.js'
import type { SpanMapper, SpanTask } from './span-map.js'
import { DECLINE, eachItem, val } from './pb-span-wire.js'
import { jsonText } from './span-text.js'
import { V_ARRAY, V_BOOL, V_DOUBLE, V_INT, V_STR } from './span-table.js'

const HEX = Buffer.from('0123456789abcdef')

function copy(o: Out, b: Uint8Array, a: number, e: number): void {
  o.ensure(e - a)
  for (let i = a; i < e; i++) o.buf[o.pos++] = b[i]
}

function lit(o: Out, s: string): void {
  o.ensure(s.length)
  o.pos = o.ascii(s, o.pos)
}

function hex(o: Out, b: Uint8Array, a: number, e: number): void {
  if (a === e) return lit(o, '0')
  o.ensure(2 * (e - a))
  for (let i = a; i < e; i++) {
    o.buf[o.pos++] = HEX[b[i] >> 4]
    o.buf[o.pos++] = HEX[b[i] & 15]
  }
}

function digits(v: number): number {
  let n = 1
  for (let x = v; x >= 10; x = Math.floor(x / 10)) n++
  return n
}

function decimal(o: Out, v: number): void {
  const n = digits(v)
  o.ensure(n)
  for (let i = n - 1; i >= 0; i--) {
    o.buf[o.pos + i] = 48 + (v % 10)
    v = Math.floor(v / 10)
  }
  o.pos += n
}

/** A scalar value as OTLP/JSON (`jsonAttrsText`, `jsonValue`). */
function jsonScalar(o: Out, b: Uint8Array, kind: number, a: number, e: number, num: number) {
  if (kind === V_STR) {
    jsonText(b, a, e)
    lit(o, '{"stringValue":"')
    copy(o, b, a, e)
    lit(o, '"}')
  } else if (kind === V_INT) {
    lit(o, '{"intValue":"')
    decimal(o, num)
    lit(o, '"}')
  } else if (kind === V_BOOL) lit(o, num ? '{"boolValue":true}' : '{"boolValue":false}')
  else if (kind === V_DOUBLE) {
    if (!Number.isFinite(num)) throw DECLINE
    lit(o, `{"doubleValue":${JSON.stringify(num)}}`)
  } else lit(o, '{}')
}

/** One attribute value as OTLP/JSON; an array's items are read again from the body. */
function jsonValue(o: Out, k: SpanTask, r: number): void {
  const at = k.t.attrs
  if (at.kind[r] !== V_ARRAY) return jsonScalar(o, k.b, at.kind[r], at.a[r], at.e[r], at.num[r])
  lit(o, '{"arrayValue":{"values":[')
  eachItem(k.b, at.a[r], at.e[r], (first) => {
    if (!first) lit(o, ',')
    jsonScalar(o, k.b, val.kind, val.a, val.e, val.num)
  })
  lit(o, ']}}')
}

function attributes(o: Out, k: SpanTask, m: SpanMapper, i: number): void {
  const at = k.t.attrs
  const c = k.t.cols
  lit(o, '"attributes":[')
  for (let x = 0; x < m.nRest; x++) {
    const r = m.rest[x]
    lit(o, x ? ',{"key":"' : '{"key":"')
    if (r < 0) {
      lit(o, 'trace_id","value":{"stringValue":"')
      hex(o, k.b, c.traceA[i], c.traceE[i])
      lit(o, '"}}')
      continue
    }
    jsonText(k.b, at.keyA[r], at.keyE[r])
    copy(o, k.b, at.keyA[r], at.keyE[r])
    lit(o, '","value":')
    jsonValue(o, k, r)
    lit(o, '}')
  }
  lit(o, ']')
}

function count(o: Out, name: string, v: number): void {
  if (!v) return
  lit(o, `,"${name}":`)
  decimal(o, v)
}

/** `messageOf` for a span without events or links: its rest attributes always hold trace_id. */
function message(o: Out, k: SpanTask, m: SpanMapper, i: number): void {
  const c = k.t.cols
  lit(o, '{')
  if (c.stateE[i] > c.stateA[i]) {
    jsonText(k.b, c.stateA[i], c.stateE[i])
    lit(o, '"traceState":"')
    copy(o, k.b, c.stateA[i], c.stateE[i])
    lit(o, '",')
  }
  attributes(o, k, m, i)
  count(o, 'droppedAttributesCount', c.droppedAttrs[i])
  count(o, 'droppedEventsCount', c.droppedEvents[i])
  count(o, 'droppedLinksCount', c.droppedLinks[i])
  count(o, 'flags', k.t.flags[i])
  lit(o, '}')
}

function value(o: Out, k: SpanTask, m: SpanMapper, i: number, j: number): void {
  const e = m.e
  switch (e.type[j]) {
    case E_RANGE:
      o.tag(W.FIELD_STRING, W.WIRE_LEN)
      o.uvarint(e.e[j] - e.a[j])
      return copy(o, k.b, e.a[j], e.e[j])
    case E_CONST:
      o.tag(W.FIELD_STRING, W.WIRE_LEN)
      return o.string(e.str[j])
    case E_HEX:
      o.tag(W.FIELD_STRING, W.WIRE_LEN)
      o.uvarint(e.e[j] === e.a[j] ? 1 : 2 * (e.e[j] - e.a[j]))
      return hex(o, k.b, e.a[j], e.e[j])
    case E_DIGITS:
      o.tag(W.FIELD_STRING, W.WIRE_LEN)
      o.uvarint(digits(e.num[j]))
      return decimal(o, e.num[j])
    case E_INT:
      o.tag(W.FIELD_INT, W.WIRE_VARINT)
      return o.int64(e.num[j])
    case E_FLOAT:
      o.tag(W.FIELD_FLOAT, W.WIRE_I64)
      return o.double(e.num[j])
    case E_BOOL:
      o.tag(W.FIELD_BOOL, W.WIRE_VARINT)
      return o.uvarint(e.num[j] ? 1 : 0)
    case E_MESSAGE: {
      const mark = o.begin(W.FIELD_STRING, 2)
      message(o, k, m, i)
      return o.end(mark)
    }
  }
}

function entry(o: Out, k: SpanTask, m: SpanMapper, i: number, j: number): void {
  const mark = o.begin(W.POINT_FIELD, 1)
  o.tag(W.FIELD_KEY, W.WIRE_LEN)
  o.string(m.e.key[j])
  value(o, k, m, i, j)
  if (m.e.tag[j]) {
    o.tag(W.FIELD_IS_TAG, W.WIRE_VARINT)
    o.uvarint(1)
  }
  o.end(mark)
}

/** Pre-encoded global tags (`writeTag`'s bytes) with their keys. */
export interface GlobalTags {
  keys: readonly string[]
  bytes: readonly Uint8Array[]
}

/** The live tags (`tags` 1) or fields (0) in order; a loop, not a callback per span. */
function entries(o: Out, k: SpanTask, m: SpanMapper, i: number, tags: number): void {
  const e = m.e
  for (let j = 0; j < e.n; j++) if (e.live[j] && e.tag[j] === tags) entry(o, k, m, i, j)
}

/** Appends span `i`'s point; `hi`/`lo` are its time in ns. */
export function writeSpan(
  o: Out,
  k: SpanTask,
  m: SpanMapper,
  i: number,
  globals: GlobalTags,
  hi: number,
  lo: number,
): void {
  const mark = o.begin(W.POINTS_ARR, 2)
  o.tag(W.POINT_NAME, W.WIRE_LEN)
  o.string('opentelemetry')
  entries(o, k, m, i, 1)
  for (let g = 0; g < globals.keys.length; g++) {
    if (m.e.has(globals.keys[g])) continue
    o.ensure(globals.bytes[g].length)
    o.buf.set(globals.bytes[g], o.pos)
    o.pos += globals.bytes[g].length
  }
  entries(o, k, m, i, 0)
  o.tag(W.POINT_TIME, W.WIRE_VARINT)
  o.ensure(10)
  o.varint64(hi, lo)
  o.end(mark)
}
