/** Durations ("30s", "1m30s", "500ms") and sizes ("64MiB", "1MB", 1048576) in config values. */
import { LONG_UNITS, parseMillis } from '../shared/duration.js'

/** Milliseconds, wrapped as [ms], or undefined (Go syntax plus days, shared/duration.ts). */
export function parseDuration(s: string): [number] | undefined {
  const ms = parseMillis(s, { d: LONG_UNITS.d })
  return ms === null || ms < 0 ? undefined : [ms]
}

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1e3,
  kb: 1e3,
  kib: 1024,
  m: 1e6,
  mb: 1e6,
  mib: 1024 ** 2,
  g: 1e9,
  gb: 1e9,
  gib: 1024 ** 3,
}

/** Bytes, wrapped as [bytes], or undefined. */
export function parseBytes(raw: unknown): [number] | undefined {
  if (typeof raw === 'number') return Number.isInteger(raw) ? [raw] : undefined
  if (typeof raw !== 'string') return undefined
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(raw)
  const unit = m ? SIZE_UNITS[m[2].toLowerCase()] : undefined
  return m && unit !== undefined ? [Math.round(Number(m[1]) * unit)] : undefined
}
