/**
 * Task variables: the task's `config_vars` (a global one takes its value from the request's
 * `variables` by id), rendered into every string of the task; secure values never appear in
 * an answer.
 */
import { render, isValidVariableName, type Funcs } from './template.js'
import type { ConfigVar } from './types.js'

export type Globals = Record<string, { name?: string; value?: string; secure?: boolean }>

/** Resolves global variables; throws `invalid variable name X` for a bad name. */
export function resolveVars(vars: ConfigVar[] | undefined, globals: Globals): ConfigVar[] {
  return (vars ?? []).map((v) => {
    if (!isValidVariableName(v.name ?? '')) throw new Error(`invalid variable name ${v.name}`)
    const g = v.type === 'global' && v.id ? globals[v.id] : undefined
    return g ? { ...v, value: g.value ?? '', secure: g.secure ?? v.secure } : v
  })
}

export function funcsOf(vars: ConfigVar[]): Funcs {
  return new Map(vars.map((v) => [v.name, v.value ?? '']))
}

/** The `config_vars` field: names and flags, values only when not secure. */
export function publicVars(vars: ConfigVar[]): string {
  return JSON.stringify(
    vars.map((v) =>
      v.secure
        ? { name: v.name, secure: true }
        : { name: v.name, secure: false, value: v.value ?? '' },
    ),
  )
}

/** Every string in a task rendered, except the keys named (scripts are not templates). */
export function renderDeep<T>(value: T, fm: Funcs, skip = new Set(['post_script'])): T {
  if (typeof value === 'string') return render(value, fm) as T
  if (Array.isArray(value)) return value.map((v: unknown) => renderDeep(v, fm, skip)) as T
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = skip.has(k) ? v : renderDeep(v, fm, skip)
    return out as T
  }
  return value
}

/** Secure values replaced in every string field of an answer (they may sit in a header). */
export function hideSecrets(fields: Record<string, unknown>, secrets: string[]): void {
  const hidden = secrets.filter((s) => s.length > 0)
  if (!hidden.length) return
  for (const [k, v] of Object.entries(fields))
    if (typeof v === 'string') fields[k] = hidden.reduce((t, s) => t.split(s).join('******'), v)
}
