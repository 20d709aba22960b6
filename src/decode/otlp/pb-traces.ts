/**
 * ExportTraceServiceRequest on the protobuf wire (trace.proto) → the model. Field numbers are
 * OTLP's; unknown fields are skipped, wrong wire types raise `PbError`.
 */
import type { PbReader } from '../codec/pb-reader.js'
import { eachField, expectWire, want, keyValue, readGroups } from './pb-common.js'
import {
  emptySpan,
  EMPTY_ID,
  type ResourceGroup,
  type Span,
  type SpanEvent,
  type SpanLink,
} from './model.js'

function readEvent(r: PbReader): SpanEvent {
  const e: SpanEvent = { time: 0n, name: '', attributes: [], dropped: 0 }
  eachField(r, (f, w) => {
    if (f === 1) e.time = want(r, w, 1).fixed64()
    else if (f === 2) e.name = want(r, w, 2).string()
    else if (f === 3) e.attributes.push(keyValue(want(r, w, 2).sub()))
    else if (f === 4) e.dropped = want(r, w, 0).uvarint()
    else return false
    return true
  })
  return e
}

function readLink(r: PbReader): SpanLink {
  const l: SpanLink = {
    traceId: EMPTY_ID,
    spanId: EMPTY_ID,
    traceState: '',
    attributes: [],
    dropped: 0,
    flags: 0,
  }
  eachField(r, (f, w) => {
    if (f === 1) l.traceId = want(r, w, 2).bytes().slice()
    else if (f === 2) l.spanId = want(r, w, 2).bytes().slice()
    else if (f === 3) l.traceState = want(r, w, 2).string()
    else if (f === 4) l.attributes.push(keyValue(want(r, w, 2).sub()))
    else if (f === 5) l.dropped = want(r, w, 0).uvarint()
    else if (f === 6) l.flags = want(r, w, 5).fixed32()
    else return false
    return true
  })
  return l
}

function readStatus(r: PbReader): { code: number; message: string } {
  const s = { code: 0, message: '' }
  eachField(r, (f, w) => {
    if (f === 2) s.message = want(r, w, 2).string()
    else if (f === 3) s.code = want(r, w, 0).uvarint()
    else return false
    return true
  })
  return s
}

/** Span fields 1–16, by number; false for a field this reader does not know. */
function spanField(s: Span, r: PbReader, f: number, w: number): boolean {
  if (f === 7 || f === 8) {
    expectWire(r, w, 1)
    if (f === 7) s.start = r.fixed64()
    else s.end = r.fixed64()
  } else if (f === 16) s.flags = want(r, w, 5).fixed32()
  else if (f === 6 || f === 10 || f === 12 || f === 14) {
    expectWire(r, w, 0)
    const n = r.uvarint()
    if (f === 6) s.kind = n
    else if (f === 10) s.droppedAttributes = n
    else if (f === 12) s.droppedEvents = n
    else s.droppedLinks = n
  } else if (f >= 1 && f <= 15) {
    expectWire(r, w, 2)
    spanBytesField(s, r, f)
  } else return false
  return true
}

function spanBytesField(s: Span, r: PbReader, f: number): void {
  if (f === 1) s.traceId = r.bytes().slice()
  else if (f === 2) s.spanId = r.bytes().slice()
  else if (f === 3) s.traceState = r.string()
  else if (f === 4) s.parentSpanId = r.bytes().slice()
  else if (f === 5) s.name = r.string()
  else if (f === 9) s.attributes.push(keyValue(r.sub()))
  else if (f === 11) s.events.push(readEvent(r.sub()))
  else if (f === 13) s.links.push(readLink(r.sub()))
  else if (f === 15) s.status = readStatus(r.sub())
  else r.bytes()
}

export function readSpan(r: PbReader): Span {
  const s = emptySpan()
  eachField(r, (f, w) => spanField(s, r, f, w))
  return s
}

export function decodeTracesPb(body: Uint8Array): ResourceGroup<Span>[] {
  return readGroups(body, readSpan)
}
