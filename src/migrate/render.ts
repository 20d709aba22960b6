/**
 * Writes the migrated values as TOML text laid out like Ferry's own samples: `[section]` or
 * `[[inputs.NAME]]` headers, plain keys, then nested tables under their dotted headers. Strings
 * holding a backslash (regular expressions, Windows paths) are written as literal strings so
 * they read as they were written; everything written parses back to the same values.
 */
import { isTable } from './values.js'

const BARE_KEY = /^[A-Za-z0-9_-]+$/

function basic(s: string): string {
  // JSON's escapes are TOML's; TOML also wants DEL escaped, which JSON leaves as it is.
  return JSON.stringify(s).replaceAll('\x7f', '\\u007F')
}

/** Literal strings may hold no control character but tab, and no quote or newline. */
function literalSafe(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if ((c < 0x20 && c !== 9) || c === 0x7f || c === 0x27) return false
  }
  return true
}

function str(s: string): string {
  return s.includes('\\') && literalSafe(s) ? `'${s}'` : basic(s)
}

export const tomlKey = (k: string) => (BARE_KEY.test(k) ? k : basic(k))

export function tomlValue(v: unknown): string {
  if (typeof v === 'string') return str(v)
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  if (Array.isArray(v)) return `[${v.map(tomlValue).join(', ')}]`
  if (isTable(v))
    return `{ ${Object.entries(v)
      .map(([k, x]) => `${tomlKey(k)} = ${tomlValue(x)}`)
      .join(', ')} }`
  throw new TypeError(`cannot write ${typeof v} as TOML`)
}

/** One table and the tables nested in it; `many` writes `[[header]]` (an array of tables). */
export function tomlTable(
  header: string[],
  body: Record<string, unknown>,
  indent: string,
  many = false,
): string[] {
  const name = header.map(tomlKey).join('.')
  const lines: string[] = []
  const nested: [string, Record<string, unknown>][] = []
  for (const [k, v] of Object.entries(body)) {
    if (isTable(v)) nested.push([k, v])
    else lines.push(`${indent}${tomlKey(k)} = ${tomlValue(v)}`)
  }
  // A table of tables alone needs no header of its own (`[pipeline.default_pipeline]`).
  if (lines.length || many || !nested.length) lines.unshift(many ? `[[${name}]]` : `[${name}]`)
  for (const [k, v] of nested) {
    if (Object.keys(v).length === 0) continue // an empty table says nothing
    if (lines.length) lines.push('')
    lines.push(...tomlTable([...header, k], v, indent))
  }
  return lines
}
