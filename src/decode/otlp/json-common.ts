/**
 * OTLP/JSON (the protobuf JSON mapping with OTLP's exceptions) → the model's common parts.
 * Per the OTLP spec: keys are lowerCamelCase; trace and span ids are hex strings, not base64;
 * enums are integers (names are accepted too); 64-bit integers may be strings or numbers;
 * `bytesValue` is base64. A value of the wrong type raises `OtlpJsonError` naming the path.
 *
 * Bounds: values nest at most `MAX_DEPTH` levels, as in the protobuf reader.
 */
import { MAX_DEPTH } from './pb-common.js'
import { EMPTY_ID, type AnyValue, type KeyValue, type ResourceGroup, type Scope } from './model.js'

export class OtlpJsonError extends Error {}

export type Obj = Record<string, unknown>

export function fail(path: string, msg: string): never {
  throw new OtlpJsonError(`${path}: ${msg}`)
}

export function obj(v: unknown, path: string): Obj {
  if (v === undefined || v === null) return {}
  if (typeof v !== 'object' || Array.isArray(v)) fail(path, 'must be an object')
  return v as Obj
}

export function list(v: unknown, path: string): unknown[] {
  if (v === undefined || v === null) return []
  if (!Array.isArray(v)) fail(path, 'must be an array')
  return v
}

export function str(v: unknown, path: string): string {
  if (v === undefined || v === null) return ''
  if (typeof v !== 'string') fail(path, 'must be a string')
  return v
}

const INT_RE = /^-?\d{1,20}$/

/** An int64/uint64 field: a JSON number or a decimal string. */
export function bigInt(v: unknown, path: string): bigint {
  if (v === undefined || v === null) return 0n
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v)
  if (typeof v === 'string' && INT_RE.test(v)) return BigInt(v)
  return fail(path, `must be an integer, got ${JSON.stringify(v)}`)
}

export function int(v: unknown, path: string): number | bigint {
  const b = BigInt.asIntN(64, bigInt(v, path))
  return b >= -9007199254740991n && b <= 9007199254740991n ? Number(b) : b
}

export function uint(v: unknown, path: string): number | bigint {
  const b = BigInt.asUintN(64, bigInt(v, path))
  return b <= 9007199254740991n ? Number(b) : b
}

/** A double: a number, or the strings protobuf JSON uses for the non-finite values. */
export function num(v: unknown, path: string): number {
  if (v === undefined || v === null) return 0
  if (typeof v === 'number') return v
  if (v === 'NaN') return NaN
  if (v === 'Infinity') return Infinity
  if (v === '-Infinity') return -Infinity
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v)
  return fail(path, `must be a number, got ${JSON.stringify(v)}`)
}

/** An enum: its number, or its name looked up in `names` (index = value). */
export function enumOf(v: unknown, path: string, names: readonly string[] = []): number {
  if (v === undefined || v === null) return 0
  if (typeof v === 'number' && Number.isInteger(v)) return v
  if (typeof v === 'string' && names.includes(v)) return names.indexOf(v)
  return fail(path, `unknown value ${JSON.stringify(v)}`)
}

const HEX_RE = /^(?:[0-9a-fA-F]{2})*$/

export function hexId(v: unknown, path: string): Uint8Array {
  const s = str(v, path)
  if (s === '') return EMPTY_ID
  if (!HEX_RE.test(s)) fail(path, 'must be a hex string')
  return new Uint8Array(Buffer.from(s, 'hex'))
}

export function anyValue(v: unknown, path: string, depth = 0): AnyValue | null {
  if (depth > MAX_DEPTH) fail(path, `nested deeper than ${MAX_DEPTH}`)
  const o = obj(v, path)
  if ('stringValue' in o) return { k: 'str', v: str(o.stringValue, `${path}.stringValue`) }
  if ('boolValue' in o) {
    if (typeof o.boolValue !== 'boolean') fail(`${path}.boolValue`, 'must be a boolean')
    return { k: 'bool', v: o.boolValue }
  }
  if ('intValue' in o) return { k: 'int', v: int(o.intValue, `${path}.intValue`) }
  if ('doubleValue' in o) return { k: 'double', v: num(o.doubleValue, `${path}.doubleValue`) }
  if ('bytesValue' in o) {
    const b = Buffer.from(str(o.bytesValue, `${path}.bytesValue`), 'base64')
    return { k: 'bytes', v: new Uint8Array(b) }
  }
  if ('arrayValue' in o) {
    const vals = list(obj(o.arrayValue, path).values, `${path}.arrayValue.values`)
    return { k: 'array', v: vals.map((x, i) => anyValue(x, `${path}.values[${i}]`, depth + 1)) }
  }
  if ('kvlistValue' in o) {
    const vals = list(obj(o.kvlistValue, path).values, `${path}.kvlistValue.values`)
    return { k: 'kvlist', v: vals.map((x, i) => keyValue(x, `${path}.values[${i}]`, depth + 1)) }
  }
  return null
}

export function keyValue(v: unknown, path: string, depth = 0): KeyValue {
  const o = obj(v, path)
  return { key: str(o.key, `${path}.key`), value: anyValue(o.value, `${path}.value`, depth) }
}

export function attributes(v: unknown, path: string): KeyValue[] {
  return list(v, path).map((x, i) => keyValue(x, `${path}[${i}]`))
}

function scopeOf(v: unknown, path: string): Scope | null {
  if (v === undefined || v === null) return null
  const o = obj(v, path)
  return {
    name: str(o.name, `${path}.name`),
    version: str(o.version, `${path}.version`),
    attributes: attributes(o.attributes, `${path}.attributes`),
  }
}

/** The request's resource entries (`resourceSpans` …) and their scope entries (`scopeSpans` …). */
export function readGroups<T>(
  text: string,
  keys: { resource: string; scope: string; items: string },
  item: (v: unknown, path: string) => T,
): ResourceGroup<T>[] {
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch (e) {
    throw new OtlpJsonError(`invalid JSON: ${(e as Error).message}`)
  }
  return list(obj(doc, 'body')[keys.resource], keys.resource).map((g, i) => {
    const p = `${keys.resource}[${i}]`
    const o = obj(g, p)
    const scopes = list(o[keys.scope], `${p}.${keys.scope}`).map((s, j) => {
      const sp = `${p}.${keys.scope}[${j}]`
      const so = obj(s, sp)
      const items = list(so[keys.items], `${sp}.${keys.items}`)
      return {
        scope: scopeOf(so.scope, `${sp}.scope`),
        items: items.map((x, k) => item(x, `${sp}.${keys.items}[${k}]`)),
      }
    })
    const resource = obj(o.resource, `${p}.resource`)
    return {
      attributes: attributes(resource.attributes, `${p}.resource.attributes`),
      schemaUrl: str(o.schemaUrl, `${p}.schemaUrl`),
      scopes,
    }
  })
}
