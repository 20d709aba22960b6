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

/** Statuses already normalised (a run repeats a handful): no lower-cased copy per point. */
const seen = new Map<string, string>()
const SEEN_MAX = 256

export function normaliseStatus(s: string | undefined): string {
  if (s === undefined) return 'info'
  const known = seen.get(s)
  if (known !== undefined) return known
  const lower = s.toLowerCase()
  const out = MAP[lower] ?? lower
  if (seen.size >= SEEN_MAX) seen.clear()
  seen.set(s, out)
  return out
}

export function normalisePointStatus(p: PlPoint): void {
  const v = getKey(p, 'status')
  const s = normaliseStatus(typeof v === 'string' ? v : undefined)
  if (v !== s) setKey(p, 'status', s)
}
