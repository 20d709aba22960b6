/**
 * `{{...}}` rendering as the reference's Go text/template does it for dial tests: a variable is
 * a function without arguments (`{{token}}`), plus `timestamp "s|ms|us|ns"`,
 * `date "rfc3339|iso8601|<Go layout>"` and `urlencode <arg>`. An unknown name fails with the
 * reference's text, so a typo never sends a literal `{{x}}` to the target.
 */
import { formatTime } from '../pipeline/time/format.js'
import { localZone } from '../shared/time-zone.js'

export type Funcs = Map<string, string>

const ACTION = /\{\{-?\s*(.*?)\s*-?\}\}/g
const TOKEN = /"((?:[^"\\]|\\.)*)"|`([^`]*)`|([A-Za-z_][A-Za-z0-9_]*)|(\S+)/g
const NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/

export function isValidVariableName(name: string): boolean {
  return NAME.test(name)
}

/** Go's url.QueryEscape: spaces become `+`. */
function queryEscape(s: string): string {
  return encodeURIComponent(s)
    .replace(/%20/g, '+')
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

function timestamp(unit: string): string {
  const ns = BigInt(Date.now()) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n)
  const per: Record<string, bigint> = { s: 1_000_000_000n, ms: 1_000_000n, us: 1000n, ns: 1n }
  return per[unit] ? String(ns / per[unit]) : '0'
}

function date(format: string): string {
  const layout =
    format === 'rfc3339'
      ? '2006-01-02T15:04:05Z07:00'
      : format === 'iso8601'
        ? '2006-01-02T15:04:05Z'
        : format
  return formatTime(BigInt(Date.now()) * 1_000_000n, layout, localZone())
}

const BUILTIN = new Set(['timestamp', 'date', 'urlencode'])

function call(name: string, args: string[], fm: Funcs): string {
  if (name === 'timestamp') return timestamp(args[0] ?? '')
  if (name === 'date') return date(args[0] ?? '')
  if (name === 'urlencode') return queryEscape(args[0] ?? '')
  return fm.get(name) ?? ''
}

/** The words of one action: quoted strings as they are, names as the values they call. */
function evalAction(body: string, fm: Funcs): string {
  const words = [...body.matchAll(TOKEN)]
  if (!words.length) return ''
  const values: string[] = []
  for (const w of words.slice(1)) {
    if (w[1] !== undefined) values.push(JSON.parse(`"${w[1]}"`) as string)
    else if (w[2] !== undefined) values.push(w[2])
    else if (w[3] !== undefined) values.push(call(w[3], [], fm))
    else values.push(w[4])
  }
  const head = words[0]
  if (head[3] !== undefined) return call(head[3], values, fm)
  return head[1] ?? head[2] ?? ''
}

/** Names an action calls that are neither variables nor built-ins. */
function undefinedName(body: string, fm: Funcs): string | null {
  for (const w of body.matchAll(TOKEN))
    if (w[3] !== undefined && !BUILTIN.has(w[3]) && !fm.has(w[3])) return w[3]
  return null
}

/** Renders `text`; throws the reference's `parse template error: ...` for an unknown name. */
export function render(text: string, fm: Funcs): string {
  if (!text.includes('{{')) return text
  for (const m of text.matchAll(ACTION)) {
    const missing = undefinedName(m[1], fm)
    if (missing !== null) throw new Error(`parse template error: variable '${missing}' not defined`)
  }
  return text.replace(ACTION, (_all, body: string) => evalAction(body, fm))
}
