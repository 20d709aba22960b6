/**
 * Logging status normalisation after the script, as the reference does it: the value is
 * lower-cased, abbreviations and synonyms map to the canonical names (`ok`, `o` and `s` to
 * `OK`), an empty, absent or non-string status becomes `info`, and any other value stays,
 * lower-cased. `setopt(status_mapping=false)` turns all of this off (the status is then left
 * exactly as the script wrote it, absent included).
 */
import type { PlPoint } from './pl-point.js'
import { getKey, setKey } from './pl-point.js'

const MAP: Record<string, string> = {
  f: 'emerg',
  emerg: 'emerg',
  a: 'alert',
  alert: 'alert',
  c: 'critical',
  critical: 'critical',
  e: 'error',
  error: 'error',
  w: 'warning',
  warn: 'warning',
  warning: 'warning',
  n: 'notice',
  notice: 'notice',
  i: 'info',
  info: 'info',
  d: 'debug',
  trace: 'debug',
  verbose: 'debug',
  debug: 'debug',
  o: 'OK',
  s: 'OK',
  ok: 'OK',
  '': 'info',
}

export function normaliseStatus(s: string | undefined): string {
  if (s === undefined) return 'info'
  const lower = s.toLowerCase()
  return MAP[lower] ?? lower
}

export function normalisePointStatus(p: PlPoint): void {
  const v = getKey(p, 'status')
  const s = normaliseStatus(typeof v === 'string' ? v : undefined)
  if (v !== s) setKey(p, 'status', s)
}
