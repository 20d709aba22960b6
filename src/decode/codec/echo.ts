/**
 * Echo encoders for `?echo=lp|json|pbjson` (reference 1.4): points after checks, before global
 * tags, with tags and fields sorted by key and ns timestamps. Also the line protocol encoder
 * used wherever Ferry needs LP text.
 */
import { Kind, type ArrayValue, type Field, type Point, type Scalar } from '../../shared/point.js'
import { ARRAY_TYPE_URL } from './protobuf.js'

const byKey = (a: { key: string }, b: { key: string }) =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : 0

const escMeasurement = (s: string) => s.replace(/[, ]/g, (c) => '\\' + c)
const escName = (s: string) => s.replace(/[,= ]/g, (c) => '\\' + c)
const escString = (s: string) => s.replace(/["\\]/g, (c) => '\\' + c)
const b64 = (v: Uint8Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64')

function lpScalar(kind: Kind, v: Scalar): string {
  switch (kind) {
    case Kind.INT:
      return `${v}i`
    case Kind.UINT:
      return `${v}u`
    case Kind.STRING:
      return `"${escString(v as string)}"`
    case Kind.BYTES:
      return `"${b64(v as Uint8Array)}"b`
    default:
      return String(v)
  }
}

function lpValue(f: Field): string {
  if (f.kind !== Kind.ARRAY) return lpScalar(f.kind, f.value as Scalar)
  const a = f.value as ArrayValue
  return `[${a.items.map((x) => lpScalar(a.kind, x)).join(',')}]`
}

export function toLineProtocol(p: Point): string {
  let s = escMeasurement(p.name)
  for (const t of [...p.tags].sort(byKey)) s += `,${escName(t.key)}=${escName(t.value)}`
  const fields = [...p.fields].sort(byKey).map((f) => `${escName(f.key)}=${lpValue(f)}`)
  return `${s} ${fields.join(',')} ${p.time ?? 0n}`
}

/** JSON text of a scalar; int64/uint64 stay exact (no float rounding). */
function jsonScalar(kind: Kind, v: Scalar): string {
  if (kind === Kind.BYTES) return JSON.stringify(b64(v as Uint8Array))
  if (typeof v === 'bigint') return v.toString()
  return JSON.stringify(v)
}

function jsonValue(f: Field): string {
  if (f.kind !== Kind.ARRAY) return jsonScalar(f.kind, f.value as Scalar)
  const a = f.value as ArrayValue
  return `[${a.items.map((x) => jsonScalar(a.kind, x)).join(',')}]`
}

export function toJsonPoint(p: Point): string {
  let s = `{"measurement":${JSON.stringify(p.name)}`
  if (p.tags.length) {
    s += `,"tags":{${[...p.tags]
      .sort(byKey)
      .map((t) => `${JSON.stringify(t.key)}:${JSON.stringify(t.value)}`)
      .join(',')}}`
  }
  s += `,"fields":{${[...p.fields]
    .sort(byKey)
    .map((f) => `${JSON.stringify(f.key)}:${jsonValue(f)}`)
    .join(',')}}`
  if (p.time) s += `,"time":${p.time}`
  return s + '}'
}

const PB_KEY: Record<number, string> = {
  [Kind.INT]: 'i',
  [Kind.UINT]: 'u',
  [Kind.FLOAT]: 'f',
  [Kind.BOOL]: 'b',
  [Kind.BYTES]: 'd',
  [Kind.STRING]: 's',
}

function pbjsonScalar(kind: Kind, v: Scalar): string {
  const key = PB_KEY[kind]
  const text = kind === Kind.INT || kind === Kind.UINT ? `"${v}"` : jsonScalar(kind, v)
  return `"${key}":${text}`
}

function pbjsonField(f: Field): string {
  let s = `{"key":${JSON.stringify(f.key)},`
  if (f.kind === Kind.ARRAY) {
    const a = f.value as ArrayValue
    const arr = a.items.map((x) => `{${pbjsonScalar(a.kind, x)}}`).join(',')
    s += `"a":{"@type":"${ARRAY_TYPE_URL}","arr":[${arr}]}`
  } else s += pbjsonScalar(f.kind, f.value as Scalar)
  if (f.type) s += `,"type":${JSON.stringify(f.type)}`
  if (f.unit) s += `,"unit":${JSON.stringify(f.unit)}`
  return s + '}'
}

function toPbjsonPoint(p: Point): string {
  const fields = [...p.fields].sort(byKey).map(pbjsonField)
  for (const t of [...p.tags].sort(byKey)) {
    fields.push(`{"key":${JSON.stringify(t.key)},"s":${JSON.stringify(t.value)},"is_tag":true}`)
  }
  let s = `{"name":${JSON.stringify(p.name)},"fields":[${fields.join(',')}],"time":"${p.time ?? 0n}"`
  if (p.warns?.length) s += `,"warns":${JSON.stringify(p.warns)}`
  return s + '}'
}

export type EchoFormat = 'lp' | 'json' | 'pbjson'

export function echo(points: Point[], format: EchoFormat): string {
  if (format === 'lp') return points.map(toLineProtocol).join('\n')
  const enc = format === 'json' ? toJsonPoint : toPbjsonPoint
  return `[${points.map(enc).join(',')}]`
}
