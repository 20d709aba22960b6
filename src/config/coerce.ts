/** Converts raw TOML or ENV_* values to a key's type (see KeySpec); errors are strings. */
import { parseBytes, parseDuration } from './units.js'
import type { KeySpec } from './spec.js'

type Coerced = [unknown] | string
type Coercer = (spec: KeySpec, raw: unknown, fromEnv: boolean) => Coerced

const DURATION = 'expected a duration like "30s"'

function coerceNumber(spec: KeySpec, raw: unknown, fromEnv: boolean): Coerced {
  const n = typeof raw === 'string' && fromEnv ? Number(raw) : raw
  if (typeof n !== 'number' || Number.isNaN(n)) return 'expected a number'
  return spec.type === 'int' && !Number.isInteger(n) ? 'expected an integer' : [n]
}

/** One converter per key type. */
const COERCERS: Record<KeySpec['type'], Coercer> = {
  string: (spec, raw) => {
    if (typeof raw !== 'string') return 'expected a string'
    return !spec.values || spec.values.includes(raw) ? [raw] : `one of ${spec.values.join(', ')}`
  },
  bool: (_, raw, fromEnv) => {
    if (typeof raw === 'boolean') return [raw]
    if (fromEnv && typeof raw === 'string')
      return [['1', 'true', 'on', 'yes'].includes(raw.toLowerCase())]
    return 'expected true or false'
  },
  int: coerceNumber,
  number: coerceNumber,
  duration: (_, raw) => (typeof raw === 'string' ? (parseDuration(raw) ?? DURATION) : DURATION),
  bytes: (_, raw) => parseBytes(raw) ?? 'expected a size like "64MiB" or a number of bytes',
  strings: (_, raw, fromEnv) => {
    if (fromEnv && typeof raw === 'string')
      return [
        raw
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ]
    return Array.isArray(raw) && raw.every((s) => typeof s === 'string')
      ? [raw]
      : 'expected a list of strings'
  },
  tags: (_, raw, fromEnv) => coerceTags(raw, fromEnv),
  // A nested table in the reference's shape (`[inputs.prom.tags_rename]`): its `check`
  // validates the inside, which no generic type can describe. From the environment it is
  // JSON, as the reference agent reads ENV_IO_FILTERS.
  table: (_, raw, fromEnv) => {
    if (fromEnv && typeof raw === 'string') return jsonTable(raw)
    return typeof raw === 'object' && raw !== null && !Array.isArray(raw) && !fromEnv
      ? [structuredClone(raw)]
      : 'expected a table'
  },
}

/** Converts a raw TOML or env value to the key's type; returns [value] or an error string. */
export function coerce(spec: KeySpec, raw: unknown, fromEnv: boolean): Coerced {
  return COERCERS[spec.type](spec, raw, fromEnv)
}

function coerceTags(raw: unknown, fromEnv: boolean): [unknown] | string {
  if (fromEnv && typeof raw === 'string') {
    const out: Record<string, string> = {}
    for (const kv of raw.split(',').filter((s) => s.trim())) {
      const eq = kv.indexOf('=')
      if (eq <= 0) return `expected k=v pairs, got ${JSON.stringify(kv)}`
      out[kv.slice(0, eq).trim()] = kv.slice(eq + 1).trim()
    }
    return [out]
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return 'expected a table of strings'
  for (const [k, v] of Object.entries(raw))
    if (typeof v !== 'string') return `tag ${k}: expected a string`
  return [{ ...(raw as Record<string, string>) }]
}

function jsonTable(raw: string): [unknown] | string {
  try {
    const v: unknown = JSON.parse(raw)
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return [v]
  } catch {
    // Reported below as the one message for anything that is not a JSON object.
  }
  return 'expected a JSON object'
}
