/**
 * The point-key API of current scripts: pt_kvs_get, pt_kvs_set, pt_kvs_del, pt_kvs_keys.
 * Key names are values (a literal, a variable, or a key holding the name), unlike the older
 * functions whose first argument names the key itself.
 *
 * Without `raw`, list and map values read or written as fields are JSON text, as the
 * reference's plain form; with `raw` they stay lists and maps. Tags are always strings.
 */
import type { LibFn } from './lib-fn.js'
import { valArg } from './context.js'
import { deleteKey, getKey, setKey, type PlPoint, type PlValue } from './pl-point.js'
import { jsonText } from './json-text.js'

const isComposite = (v: unknown) =>
  v !== null && typeof v === 'object' && !(v instanceof Uint8Array)

function nameOf(p: PlPoint, a: unknown): string | null {
  const v = valArg(p, a)
  return typeof v === 'string' ? v : null
}

function tagText(v: PlValue): string {
  return typeof v === 'string' ? v : isComposite(v) ? jsonText(v) : String(v)
}

function kvsSet(p: PlPoint, a: unknown[]): boolean {
  const name = nameOf(p, a[0])
  const v = valArg(p, a[1])
  if (name === null || v === null) return false
  if (a[2] === true) {
    const text = tagText(v)
    deleteKey(p, name)
    p.budget?.charge(name.length + text.length)
    p.tags.set(name, text)
    return true
  }
  p.tags.delete(name)
  setKey(p, name, isComposite(v) && a[3] !== true ? jsonText(v) : v)
  return true
}

export const KVS_FNS: Record<string, LibFn> = {
  pt_kvs_get: {
    params: ['name', 'raw'],
    run: (_c, p, a) => {
      const name = nameOf(p, a[0])
      const v = name === null ? undefined : getKey(p, name)
      if (v === undefined) return null
      return isComposite(v) && a[1] !== true ? jsonText(v) : v
    },
  },
  pt_kvs_set: { params: ['name', 'value', 'as_tag', 'raw'], run: (_c, p, a) => kvsSet(p, a) },
  pt_kvs_del: {
    params: ['name'],
    run: (_c, p, a) => {
      const name = nameOf(p, a[0])
      if (name !== null) deleteKey(p, name)
    },
  },
  pt_kvs_keys: {
    params: ['tags', 'fields'],
    run: (_c, p, a) => [
      ...(a[0] !== false ? p.tags.keys() : []),
      ...(a[1] !== false ? p.fields.keys() : []),
    ],
  },
}
