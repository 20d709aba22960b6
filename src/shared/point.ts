/**
 * The point model shared by the decode workers, the HTTP source and the sinks.
 *
 * Invariants:
 * - `time` is nanoseconds since the Unix epoch, always set once a point leaves decode.
 * - INT and UINT values are JS numbers while they are safe integers and bigints beyond that,
 *   so the common case never allocates a bigint.
 * - A NIL field (JSON `null`) only exists between parsing and checking; checks remove it.
 */
export const Kind = {
  NIL: 0,
  INT: 1,
  UINT: 2,
  FLOAT: 3,
  BOOL: 4,
  BYTES: 5,
  STRING: 6,
  ARRAY: 7,
} as const
export type Kind = (typeof Kind)[keyof typeof Kind]

export type Scalar = number | bigint | boolean | string | Uint8Array
export interface ArrayValue {
  kind: Kind
  items: Scalar[]
}
export type Value = Scalar | ArrayValue | null

export interface Field {
  key: string
  kind: Kind
  value: Value
  /** Metric type (COUNT, GAUGE, ...) and unit, carried through from PBJSON/protobuf. */
  type?: string
  unit?: string
}

export interface Tag {
  key: string
  value: string
}

export interface Warn {
  type: string
  message: string
}

/**
 * What a parser already knows about a point, so the checks can skip work (bit flags):
 * CLEAN: every name and tag value is ASCII, short, and has no `.`, backslash or newline;
 * UNIQUE: no duplicate tag keys and no duplicate field keys.
 */
export const Hint = { CLEAN: 1, UNIQUE: 2 } as const

export interface Point {
  name: string
  tags: Tag[]
  fields: Field[]
  /** Nanoseconds; null until the decoder resolves it (absent timestamp). */
  time: bigint | null
  warns: Warn[] | null
  hints?: number
}

export function newPoint(name: string): Point {
  return { name, tags: [], fields: [], time: null, warns: null, hints: 0 }
}

/** Whether the point has the key as a tag or a field (loops: no closure per point and key). */
export function hasKey(p: Point, key: string): boolean {
  for (let i = 0; i < p.tags.length; i++) if (p.tags[i].key === key) return true
  for (let i = 0; i < p.fields.length; i++) if (p.fields[i].key === key) return true
  return false
}

export function addWarn(p: Point, type: string, message: string): void {
  ;(p.warns ??= []).push({ type, message })
}
