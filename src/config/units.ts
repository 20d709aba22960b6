/** Durations ("30s", "1m30s", "500ms") and sizes ("64MiB", "1MB", 1048576) in config values. */
const DURATION_UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
}

/** Milliseconds, wrapped as [ms], or undefined. */
export function parseDuration(s: string): [number] | undefined {
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy
  let total = 0
  let matched = 0
  for (const m of s.trim().matchAll(re)) {
    total += Number(m[1]) * DURATION_UNITS[m[2]]
    matched += m[0].length
  }
  return matched > 0 && matched === s.trim().length ? [Math.round(total)] : undefined
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
