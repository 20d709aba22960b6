/**
 * What the OTLP trace transcoder reads from an ExportTraceServiceRequest, as byte ranges and
 * numbers in typed arrays reused from request to request: one row per span, per attribute
 * (KeyValue), per resource and per scope. No object or string is made per span.
 *
 * Invariants: ranges index the request body; a span's, resource's or scope's attributes are
 * the rows [kvA, kvE) of the attribute table, in wire order; tables only grow (`reset` keeps
 * their memory, so the next request of the same shape allocates nothing).
 */

/** Attribute value kinds the transcoder takes; any other makes it decline. */
export const V_NULL = 0
export const V_STR = 1
export const V_BOOL = 2
export const V_INT = 3
export const V_DOUBLE = 4
/** An ArrayValue of scalars (its range; only for the message). */
export const V_ARRAY = 5

/** Span status: none on the wire (the reference's `info`). */
export const NO_STATUS = -1

/** `a`, or a copy at least `need` long (doubling). */
export function grow<T extends Int32Array | Float64Array | Uint8Array>(a: T, need: number): T {
  if (need <= a.length) return a
  const next = new (a.constructor as new (n: number) => T)(Math.max(need, a.length * 2))
  next.set(a)
  return next
}

export class AttrTable {
  n = 0
  keyA = new Int32Array(256)
  keyE = new Int32Array(256)
  kind = new Uint8Array(256)
  /** String values: the range; ints, doubles and bools: `num`. */
  a = new Int32Array(256)
  e = new Int32Array(256)
  num = new Float64Array(256)

  add(): number {
    const i = this.n++
    if (i >= this.keyA.length) {
      this.keyA = grow(this.keyA, i + 1)
      this.keyE = grow(this.keyE, i + 1)
      this.kind = grow(this.kind, i + 1)
      this.a = grow(this.a, i + 1)
      this.e = grow(this.e, i + 1)
      this.num = grow(this.num, i + 1)
    }
    this.kind[i] = V_NULL
    this.keyA[i] = this.keyE[i] = 0
    return i
  }
}

/** Int32 columns of the span table, by name (each a column of `SpanTable.cols`). */
export const SPAN_COLUMNS = [
  'traceA',
  'traceE',
  'spanA',
  'spanE',
  'parentA',
  'parentE',
  'nameA',
  'nameE',
  'stateA',
  'stateE',
  'kind',
  'status',
  'droppedAttrs',
  'droppedEvents',
  'droppedLinks',
  'kvA',
  'kvE',
  'group',
  'scope',
] as const
export type SpanColumn = (typeof SPAN_COLUMNS)[number]

export class SpanTable {
  n = 0
  cols = {} as Record<SpanColumn, Int32Array>
  /** Start and end times in ns as 32-bit halves; `flags` (fixed32) as a number. */
  startHi = new Float64Array(64)
  startLo = new Float64Array(64)
  endHi = new Float64Array(64)
  endLo = new Float64Array(64)
  flags = new Float64Array(64)
  /** Per resource group and per scope entry: the attribute rows of the last message seen. */
  groupKv = new Int32Array(32)
  scopeKv = new Int32Array(32)
  groups = 0
  scopes = 0
  readonly attrs = new AttrTable()

  constructor() {
    for (const c of SPAN_COLUMNS) this.cols[c] = new Int32Array(64)
  }

  reset(): void {
    this.n = this.groups = this.scopes = this.attrs.n = 0
  }

  add(group: number, scope: number): number {
    const i = this.n++
    if (i >= this.startHi.length) {
      for (const c of SPAN_COLUMNS) this.cols[c] = grow(this.cols[c], i + 1)
      this.startHi = grow(this.startHi, i + 1)
      this.startLo = grow(this.startLo, i + 1)
      this.endHi = grow(this.endHi, i + 1)
      this.endLo = grow(this.endLo, i + 1)
      this.flags = grow(this.flags, i + 1)
    }
    for (const c of SPAN_COLUMNS) this.cols[c][i] = 0
    this.cols.status[i] = NO_STATUS
    this.cols.group[i] = group
    this.cols.scope[i] = scope
    this.startHi[i] = this.startLo[i] = this.endHi[i] = this.endLo[i] = this.flags[i] = 0
    return i
  }

  /** A new resource group (or scope entry) with no attributes; returns its index. */
  addGroup(): number {
    const g = this.groups++
    this.groupKv = grow(this.groupKv, 2 * g + 2)
    this.groupKv[2 * g] = this.groupKv[2 * g + 1] = 0
    return g
  }

  addScope(): number {
    const s = this.scopes++
    this.scopeKv = grow(this.scopeKv, 2 * s + 2)
    this.scopeKv[2 * s] = this.scopeKv[2 * s + 1] = 0
    return s
  }
}
