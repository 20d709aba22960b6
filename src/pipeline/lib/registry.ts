/**
 * The function library, by the reference's names. Each function runs on the host for one
 * point; the sandbox calls it for one point (point mode) or for every live point of a batch
 * (batch mode). `params` names the parameters, for Platypus named arguments.
 */
import { keyArg, valArg } from './context.js'
import { EXTRACT_FNS } from './fn-extract.js'
import { KEY_FNS } from './fn-keys.js'
import { NET_FNS } from './fn-net.js'
import { KVS_FNS } from './fn-kvs.js'
import { DOC_FNS } from './fn-doc.js'
import { DATE_FNS } from './fn-dates.js'
import { CACHE_FNS } from './fn-cache.js'
import { REFER_FNS } from './fn-refer.js'
import { HTTP_FNS } from './fn-http.js'
import { WINDOW_FNS } from './window.js'
import { AGG_LIB_FNS } from './fn-agg.js'
import { VALUE_FNS } from './fn-values.js'
import { STRING_FNS } from './fn-strings.js'
import { TIME_FNS } from './fn-time.js'
import { newPl, setKey, type PlPoint, type PlValue } from './pl-point.js'
import type { LibFn } from './lib-fn.js'

export type { LibFn } from './lib-fn.js'

function createPoint(p: PlPoint, a: unknown[]): void {
  const ts = typeof a[3] === 'number' ? BigInt(Math.trunc(a[3])) : p.time
  p.budget?.create()
  const np = newPl(String(valArg(p, a[0]) ?? ''), ts)
  np.budget = p.budget
  const tags = (valArg(p, a[1]) ?? {}) as Record<string, unknown>
  const fields = (valArg(p, a[2]) ?? {}) as Record<string, unknown>
  for (const [k, v] of Object.entries(tags)) {
    const value = String(v)
    np.budget?.charge(k.length + value.length)
    np.tags.set(k, value)
  }
  for (const [k, v] of Object.entries(fields)) setKey(np, k, v as PlValue)
  ;(p.created ??= []).push(np)
}

const FLOW_FNS: Record<string, LibFn> = {
  drop: {
    params: [],
    run: (_c, p) => {
      p.dropped = true
    },
  },
  drop_origin_data: { params: [], run: (_c, p) => void p.fields.delete('message') },
  create_point: {
    params: ['name', 'tags', 'fields', 'ts', 'category'],
    run: (_c, p, a) => createPoint(p, a),
  },
  setopt: {
    params: ['status_mapping'],
    run: (c, _p, a) => {
      if (typeof a[0] === 'boolean') c.statusMapping = a[0]
    },
  },
  pt_name: {
    params: ['name'],
    run: (_c, p, a) => {
      if (a.length > 0 && a[0] !== null) p.name = String(valArg(p, a[0]))
      return p.name
    },
  },
  value_type: {
    params: ['value'],
    run: (_c, p, a) => {
      const v = valArg(p, a[0])
      if (v === null) return ''
      if (Array.isArray(v)) return 'list'
      if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float'
      if (typeof v === 'bigint') return 'int'
      return typeof v === 'object' ? 'map' : typeof v === 'string' ? 'str' : typeof v
    },
  },
  exists: {
    params: ['key'],
    run: (_c, p, a) => valArg(p, { $k: keyArg(a[0], 'exists') }) !== null,
  },
}

export const LIBRARY: Record<string, LibFn> = {
  ...KEY_FNS,
  ...STRING_FNS,
  ...EXTRACT_FNS,
  ...TIME_FNS,
  ...NET_FNS,
  ...FLOW_FNS,
  ...KVS_FNS,
  ...VALUE_FNS,
  ...DOC_FNS,
  ...DATE_FNS,
  ...CACHE_FNS,
  ...REFER_FNS,
  ...HTTP_FNS,
  ...WINDOW_FNS,
  ...AGG_LIB_FNS,
}

/** Functions the sandbox implements itself (control flow, values changed in place). */
export const SANDBOX_FNS = ['exit', 'use', 'append', 'delete']

/** Sandbox functions that take plain values (never key references) as arguments. */
export const SANDBOX_VALUE_FNS = new Set(['append', 'delete'])

/** Sandbox names of functions whose Platypus name is a JavaScript keyword. */
export const JS_NAMES: Record<string, string> = { delete: '$fn_delete' }

export function isLibraryFunction(name: string): boolean {
  return Object.hasOwn(LIBRARY, name) || SANDBOX_FNS.includes(name)
}
