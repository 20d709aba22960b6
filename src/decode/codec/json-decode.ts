/**
 * JSON bodies (spec 2.4, 2.5): an array whose elements are PBJSON points when they look like
 * one (`name`/`fields[]` keys only), else simple JSON points. Element errors name the index.
 *
 * Simple JSON cannot tell int from float: every number is a float. `null`, objects and
 * mixed-type arrays become NIL fields, which the checks drop with a `nil_field` warning.
 */
import { Kind, newPoint, type Field, type Point, type Scalar } from '../../shared/point.js'
import { ARRAY_TYPE_URL, METRIC_TYPES } from './protobuf.js'

export class JsonPointError extends Error {}

const PBJSON_KEYS = new Set(['name', 'fields', 'time', 'warns', 'debugs'])
type Obj = Record<string, unknown>

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function isPbjson(el: Obj): boolean {
  return Array.isArray(el.fields) && Object.keys(el).every((k) => PBJSON_KEYS.has(k))
}

function fail(i: number, msg: string): never {
  throw new JsonPointError(`point ${i}: ${msg}`)
}

function simpleValue(v: unknown): { kind: Kind; value: Field['value'] } {
  if (typeof v === 'number') return { kind: Kind.FLOAT, value: v }
  if (typeof v === 'string') return { kind: Kind.STRING, value: v }
  if (typeof v === 'boolean') return { kind: Kind.BOOL, value: v }
  if (Array.isArray(v) && v.length > 0) {
    const t = typeof v[0]
    if ((t === 'number' || t === 'string' || t === 'boolean') && v.every((x) => typeof x === t)) {
      const kind = t === 'number' ? Kind.FLOAT : t === 'string' ? Kind.STRING : Kind.BOOL
      return { kind: Kind.ARRAY, value: { kind, items: v as Scalar[] } }
    }
  }
  return { kind: Kind.NIL, value: null }
}

function timeOf(i: number, v: unknown, allowString: boolean): bigint | null {
  if (v === undefined || v === null) return null
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v)
  if (allowString && typeof v === 'string' && /^-?\d{1,19}$/.test(v)) return BigInt(v)
  return fail(i, `time must be an integer, got ${JSON.stringify(v)}`)
}

function simplePoint(i: number, el: Obj): Point {
  if (el.measurement !== undefined && typeof el.measurement !== 'string')
    fail(i, 'measurement must be a string')
  const p = newPoint((el.measurement as string | undefined) ?? '')
  if (el.tags !== undefined && el.tags !== null) {
    if (!isObj(el.tags)) fail(i, 'tags must be an object')
    for (const [key, value] of Object.entries(el.tags)) {
      if (typeof value !== 'string') fail(i, `tag ${key} must be a string`)
      p.tags.push({ key, value })
    }
  }
  if (el.fields !== undefined && el.fields !== null) {
    if (!isObj(el.fields)) fail(i, 'fields must be an object')
    for (const [key, v] of Object.entries(el.fields)) p.fields.push({ key, ...simpleValue(v) })
  }
  p.time = timeOf(i, el.time, false)
  return p
}

const INT_RE = /^-?\d+$/

function pbInt(i: number, v: unknown, signed: boolean): number | bigint {
  const s = typeof v === 'number' ? String(v) : v
  if (typeof s !== 'string' || !INT_RE.test(s) || (!signed && s.startsWith('-'))) {
    fail(i, `invalid ${signed ? 'int64' : 'uint64'} value ${JSON.stringify(v)}`)
  }
  const b = BigInt(s)
  const inRange = signed ? BigInt.asIntN(64, b) === b : BigInt.asUintN(64, b) === b
  if (!inRange) fail(i, `value ${s} out of range`)
  return b >= -9007199254740991n && b <= 9007199254740991n ? Number(b) : b
}

/** One PBJSON value key (`i u f b d s`) → kind and value. */
function pbScalar(i: number, key: string, v: unknown): { kind: Kind; value: Scalar } {
  switch (key) {
    case 'i':
      return { kind: Kind.INT, value: pbInt(i, v, true) }
    case 'u':
      return { kind: Kind.UINT, value: pbInt(i, v, false) }
    case 'f':
      if (typeof v !== 'number') fail(i, `f must be a number`)
      return { kind: Kind.FLOAT, value: v }
    case 'b':
      if (typeof v !== 'boolean') fail(i, `b must be a boolean`)
      return { kind: Kind.BOOL, value: v }
    case 'd':
      if (typeof v !== 'string') fail(i, `d must be a base64 string`)
      return { kind: Kind.BYTES, value: new Uint8Array(Buffer.from(v, 'base64')) }
    case 's':
      if (typeof v !== 'string') fail(i, `s must be a string`)
      return { kind: Kind.STRING, value: v }
  }
  return fail(i, `unknown value key ${key}`)
}

const VALUE_KEYS = ['i', 'u', 'f', 'b', 'd', 's', 'a']

function pbArray(i: number, a: unknown): Field['value'] {
  if (!isObj(a) || a['@type'] !== ARRAY_TYPE_URL || !Array.isArray(a.arr)) {
    fail(i, `a must be {"@type":"${ARRAY_TYPE_URL}","arr":[...]}`)
  }
  const items: Scalar[] = []
  let kind: Kind = Kind.NIL
  for (const el of a.arr as unknown[]) {
    const key = isObj(el) ? Object.keys(el).find((k) => VALUE_KEYS.includes(k)) : undefined
    if (!key || key === 'a') fail(i, 'array elements must hold one of i, u, f, b, d, s')
    const v = pbScalar(i, key, (el as Obj)[key])
    if (kind !== Kind.NIL && v.kind !== kind) fail(i, 'array elements of mixed types')
    kind = v.kind
    items.push(v.value)
  }
  return items.length ? { kind, items } : null
}

function pbField(i: number, f: unknown, p: Point): void {
  if (!isObj(f) || typeof f.key !== 'string') return fail(i, 'each field needs a string "key"')
  const keys = Object.keys(f).filter((k) => VALUE_KEYS.includes(k))
  if (keys.length !== 1) fail(i, `field ${f.key} must hold exactly one of b, d, f, i, s, u, a`)
  const vk = keys[0]
  const field: Field =
    vk === 'a'
      ? { key: f.key, kind: Kind.ARRAY, value: pbArray(i, f.a) }
      : { key: f.key, ...pbScalar(i, vk, f[vk]) }
  if (f.is_tag === true) {
    p.tags.push({ key: f.key, value: String(field.value) })
    return
  }
  if (typeof f.type === 'string' && (METRIC_TYPES as readonly string[]).includes(f.type))
    field.type = f.type
  if (typeof f.unit === 'string') field.unit = f.unit
  p.fields.push(field)
}

function pbjsonPoint(i: number, el: Obj): Point {
  if (el.name !== undefined && typeof el.name !== 'string') fail(i, 'name must be a string')
  const p = newPoint((el.name as string | undefined) ?? '')
  for (const f of el.fields as unknown[]) pbField(i, f, p)
  p.time = timeOf(i, el.time, true)
  return p
}

export function decodeJson(text: string): Point[] {
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch (e) {
    throw new JsonPointError(`invalid JSON: ${(e as Error).message}`)
  }
  if (!Array.isArray(doc)) throw new JsonPointError('the body must be a JSON array of points')
  return doc.map((el, i) => {
    if (!isObj(el)) fail(i, 'each point must be a JSON object')
    return isPbjson(el) ? pbjsonPoint(i, el) : simplePoint(i, el)
  })
}
