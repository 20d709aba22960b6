/** Key functions: add, read, drop, rename, tag, measurement, cast, nullif, grouping. */
import type { LibFn } from './lib-fn.js'
import { keyArg, valArg, isKeyRef } from './context.js'
import { deleteKey, getKey, hasKey, setKey, type PlPoint, type PlValue } from './pl-point.js'
import { jsonText } from './json-text.js'

function toInt(v: PlValue): number {
  if (typeof v === 'number') return Math.trunc(v)
  if (typeof v === 'boolean') return v ? 1 : 0
  if (typeof v === 'bigint') return Number(v)
  const n = Number.parseFloat(String(v))
  return Number.isFinite(n) ? Math.trunc(n) : 0
}

function toFloat(v: PlValue): number {
  if (typeof v === 'number') return v
  if (typeof v === 'boolean') return v ? 1 : 0
  const n = Number.parseFloat(String(v))
  return Number.isFinite(n) ? n : 0
}

function toBool(v: PlValue): boolean {
  if (typeof v === 'boolean') return v
  if (typeof v === 'number') return v !== 0
  return ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(String(v))
}

export function castValue(p: PlPoint, key: string, type: string): void {
  const v = getKey(p, key)
  if (v === undefined || v === null) return
  switch (type) {
    case 'int':
      return setKey(p, key, toInt(v))
    case 'float':
      return setKey(p, key, toFloat(v), true)
    case 'bool':
      return setKey(p, key, toBool(v))
    case 'str':
    case 'string':
      return setKey(p, key, typeof v === 'object' ? jsonText(v) : String(v))
  }
}

function same(a: PlValue | undefined, b: PlValue): boolean {
  if (typeof a === 'number' || typeof a === 'bigint')
    return (typeof b === 'number' || typeof b === 'bigint') && Number(a) === Number(b)
  return a === b
}

function inRange(v: PlValue | undefined, range: unknown): boolean {
  if (!Array.isArray(range) || range.length !== 2 || typeof v !== 'number') return false
  return v >= Number(range[0]) && v <= Number(range[1])
}

export const KEY_FNS: Record<string, LibFn> = {
  add_key: {
    params: ['key', 'value'],
    run: (_c, p, a) => {
      const value =
        a.length > 1 ? valArg(p, a[1]) : isKeyRef(a[0]) && 'v' in a[0] ? valArg(p, a[0]) : null
      setKey(p, keyArg(a[0], 'add_key'), value)
    },
  },
  get_key: { params: ['key'], run: (_c, p, a) => getKey(p, keyArg(a[0], 'get_key')) ?? null },
  drop_key: { params: ['key'], run: (_c, p, a) => deleteKey(p, keyArg(a[0], 'drop_key')) },
  rename: {
    params: ['new_key', 'old_key'],
    run: (_c, p, a) => {
      const to = keyArg(a[0], 'rename')
      const from = keyArg(a[1], 'rename')
      if (!hasKey(p, from) || to === from) return
      const isTag = p.tags.has(from)
      const v = getKey(p, from)!
      const float = p.floats?.has(from) === true
      deleteKey(p, from)
      deleteKey(p, to)
      if (isTag) p.tags.set(to, v as string)
      else setKey(p, to, v, float)
    },
  },
  set_tag: {
    params: ['key', 'value'],
    run: (_c, p, a) => {
      const key = keyArg(a[0], 'set_tag')
      const v = a.length > 1 ? valArg(p, a[1]) : (getKey(p, key) ?? '')
      deleteKey(p, key)
      p.tags.set(key, typeof v === 'string' ? v : jsonText(v))
    },
  },
  set_measurement: {
    params: ['name', 'delete_key'],
    run: (_c, p, a) => {
      const v = valArg(p, a[0])
      if (v === null) return
      p.name = String(v)
      if (a[1] === true && isKeyRef(a[0])) deleteKey(p, a[0].$k)
    },
  },
  cast: {
    params: ['key', 'type'],
    run: (_c, p, a) => castValue(p, keyArg(a[0], 'cast'), String(a[1])),
  },
  nullif: {
    params: ['key', 'value'],
    run: (_c, p, a) => {
      const key = keyArg(a[0], 'nullif')
      if (hasKey(p, key) && same(getKey(p, key), valArg(p, a[1]))) deleteKey(p, key)
    },
  },
  group_in: {
    params: ['key', 'set', 'value', 'new_key'],
    run: (_c, p, a) => {
      const key = keyArg(a[0], 'group_in')
      const v = getKey(p, key)
      if (v === undefined || !Array.isArray(a[1]) || !a[1].some((x) => same(v, x as PlValue)))
        return
      setKey(p, a.length > 3 ? keyArg(a[3], 'group_in') : key, valArg(p, a[2]))
    },
  },
  group_between: {
    params: ['key', 'between', 'value', 'new_key'],
    run: (_c, p, a) => {
      const key = keyArg(a[0], 'group_between')
      if (!inRange(getKey(p, key), a[1])) return
      setKey(p, a.length > 3 ? keyArg(a[3], 'group_between') : key, valArg(p, a[2]))
    },
  },
  len: {
    params: ['value'],
    run: (_c, p, a) => {
      const v = valArg(p, a[0])
      if (typeof v === 'string') return [...v].length
      if (Array.isArray(v)) return v.length
      if (v && typeof v === 'object') return Object.keys(v).length
      return 0
    },
  },
  strlen: { params: ['value'], run: (_c, p, a) => [...String(valArg(p, a[0]) ?? '')].length },
}
