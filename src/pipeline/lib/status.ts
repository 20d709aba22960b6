/**
 * Logging status normalisation after the script (reference behaviour): abbreviations and
 * synonyms map to the canonical names, case-insensitively; an empty or absent status becomes
 * `info`; anything else is kept as written.
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
  o: 'ok',
  s: 'ok',
  ok: 'ok',
  '': 'info',
}

export function normaliseStatus(s: string | undefined): string {
  if (s === undefined) return 'info'
  return MAP[s.toLowerCase()] ?? s
}

export function normalisePointStatus(p: PlPoint): void {
  const v = getKey(p, 'status')
  const s = normaliseStatus(v === undefined || v === null ? undefined : String(v))
  if (v !== s) setKey(p, 'status', s)
}
