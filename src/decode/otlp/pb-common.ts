/**
 * OTLP's common messages on the protobuf wire (common.proto, resource.proto) and the one loop
 * every OTLP message reader shares. Unknown fields are skipped, as protobuf requires; a field
 * with the wrong wire type is an error (`PbError`), never a misread value.
 *
 * Bounds: AnyValue nests at most `MAX_DEPTH` levels (arrays and kvlists inside each other), so
 * a hostile body cannot recurse the stack away; every list is bounded by the body's length.
 */
import { PbError, PbReader } from '../codec/pb-reader.js'
import type { AnyValue, KeyValue, ResourceGroup, Scope } from './model.js'

export const MAX_DEPTH = 16

/** Calls `on(field, wire)` for each field of the message; `on` must consume the field. */
export function eachField(r: PbReader, on: (field: number, wire: number) => boolean): void {
  while (!r.done()) {
    const tag = r.uvarint()
    const field = Math.floor(tag / 8)
    const wire = tag & 7
    if (!on(field, wire)) r.skip(wire)
  }
}

export function expectWire(r: PbReader, wire: number, want: number): void {
  if (wire !== want) throw new PbError(`wrong wire type ${wire} at offset ${r.pos}`)
}

/** The reader, once the field's wire type is the one expected. */
export function want(r: PbReader, wire: number, expected: number): PbReader {
  expectWire(r, wire, expected)
  return r
}

/** Every message of repeated field 1 (ArrayValue, KeyValueList, Resource, the requests). */
function repeated1<T>(r: PbReader, read: (sub: PbReader) => T): T[] {
  const out: T[] = []
  eachField(r, (f, w) => {
    if (f !== 1) return false
    out.push(read(want(r, w, 2).sub()))
    return true
  })
  return out
}

export function anyValue(r: PbReader, depth = 0): AnyValue | null {
  if (depth > MAX_DEPTH) throw new PbError(`attribute values nested deeper than ${MAX_DEPTH}`)
  let v: AnyValue | null = null
  eachField(r, (f, w) => {
    const want = f === 2 || f === 3 ? 0 : f === 4 ? 1 : 2
    if (f < 1 || f > 7) return false
    expectWire(r, w, want)
    if (f === 1) v = { k: 'str', v: r.string() }
    else if (f === 2) v = { k: 'bool', v: r.bool() }
    else if (f === 3) v = { k: 'int', v: r.int64() }
    else if (f === 4) v = { k: 'double', v: r.double() }
    else if (f === 5) v = { k: 'array', v: repeated1(r.sub(), (x) => anyValue(x, depth + 1)) }
    else if (f === 6) v = { k: 'kvlist', v: repeated1(r.sub(), (x) => keyValue(x, depth + 1)) }
    else v = { k: 'bytes', v: r.bytes().slice() }
    return true
  })
  return v
}

export function keyValue(r: PbReader, depth = 0): KeyValue {
  const kv: KeyValue = { key: '', value: null }
  eachField(r, (f, w) => {
    if (f === 1) {
      expectWire(r, w, 2)
      kv.key = r.string()
    } else if (f === 2) {
      expectWire(r, w, 2)
      kv.value = anyValue(r.sub(), depth)
    } else return false
    return true
  })
  return kv
}

/** InstrumentationScope: name = 1, version = 2, attributes = 3. */
export function readScope(r: PbReader): Scope {
  const s: Scope = { name: '', version: '', attributes: [] }
  eachField(r, (f, w) => {
    if (f < 1 || f > 3) return false
    expectWire(r, w, 2)
    if (f === 1) s.name = r.string()
    else if (f === 2) s.version = r.string()
    else s.attributes.push(keyValue(r.sub()))
    return true
  })
  return s
}

/**
 * ResourceSpans / ResourceMetrics / ResourceLogs and their Scope* messages share one layout:
 * resource = 1, scope entries = 2, schema_url = 3; scope = 1, items = 2 in each scope entry.
 */
export function readGroups<T>(body: Uint8Array, item: (r: PbReader) => T): ResourceGroup<T>[] {
  return repeated1(new PbReader(body), (g) => readGroup(g, item))
}

function readGroup<T>(r: PbReader, item: (r: PbReader) => T): ResourceGroup<T> {
  const g: ResourceGroup<T> = { attributes: [], schemaUrl: '', scopes: [] }
  eachField(r, (f, w) => {
    if (f < 1 || f > 3) return false
    expectWire(r, w, 2)
    if (f === 1) g.attributes = repeated1(r.sub(), (x) => keyValue(x))
    else if (f === 2) g.scopes.push(readScopeEntry(r.sub(), item))
    else g.schemaUrl = r.string()
    return true
  })
  return g
}

function readScopeEntry<T>(r: PbReader, item: (r: PbReader) => T) {
  const e: { scope: Scope | null; items: T[] } = { scope: null, items: [] }
  eachField(r, (f, w) => {
    if (f !== 1 && f !== 2) return false
    expectWire(r, w, 2)
    if (f === 1) e.scope = readScope(r.sub())
    else e.items.push(item(r.sub()))
    return true
  })
  return e
}
