/**
 * Values on their way from a reference file to a Ferry file: placeholders expanded inside
 * strings, lists and tables (placeholders.ts), then checked against the Ferry key's spec with
 * the schema's own coercion and checks, so nothing is written that Ferry would refuse.
 *
 * What is written is the value as the reference wrote it (a duration stays "30s"), not the
 * parsed number; a value that was one whole placeholder is read as the variable's text, the
 * way Ferry reads an ENV_* value (lists comma-separated, tags `k=v,k2=v2`).
 */
import { coerce } from '../config/coerce.js'
import type { KeySpec } from '../config/spec.js'
import { expand } from './placeholders.js'

export interface Expanded {
  value: unknown
  /** The value was one whole placeholder: its text is read as an environment value. */
  fromText: boolean
}

const isTable = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Expands every string inside `v`; a string that cannot be is the problem returned. */
export function expandValue(v: unknown, env: NodeJS.ProcessEnv): Expanded | { problem: string } {
  if (typeof v === 'string') {
    const e = expand(v, env)
    return 'problem' in e ? e : { value: e.value, fromText: e.whole }
  }
  if (Array.isArray(v)) {
    const out: unknown[] = []
    for (const item of v) {
      const e = expandValue(item, env)
      if ('problem' in e) return e
      // `urls = ["{{.Dataway.URLs}}"]`: the installer's variables hold comma-separated lists.
      if (e.fromText && typeof e.value === 'string')
        out.push(
          ...e.value
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        )
      else out.push(e.value)
    }
    return { value: out, fromText: false }
  }
  if (isTable(v)) {
    const out: Record<string, unknown> = {}
    for (const [k, item] of Object.entries(v)) {
      const e = expandValue(item, env)
      if ('problem' in e) return e
      out[k] = e.value
    }
    return { value: out, fromText: false }
  }
  return { value: v, fromText: false }
}

/** The value to write for a Ferry key, or the reason it cannot be (the schema's message). */
export function forKey(spec: KeySpec, e: Expanded): { value: unknown } | { problem: string } {
  const r = coerce(spec, e.value, e.fromText)
  if (typeof r === 'string') return { problem: r }
  const problem = spec.check?.(r[0] as never)
  if (problem) return { problem }
  const keepText = e.fromText && ['string', 'duration', 'bytes'].includes(spec.type)
  return { value: e.fromText && !keepText ? r[0] : e.value }
}

/** Empty values (false, 0, "", [], {}) ask for nothing, whatever the key. */
export function isEmpty(v: unknown): boolean {
  if (Array.isArray(v)) return v.length === 0
  if (isTable(v)) return Object.values(v).every(isEmpty)
  return v === false || v === 0 || v === ''
}

/** A table (or list of tables) switched off by `enable = false`: its settings do nothing. */
export function switchedOff(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0 && v.every(switchedOff)
  return isTable(v) && (v.enable === false || v.enabled === false)
}

export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

export { isTable }
