/**
 * The one place durations are read and written. Reading: Go's `time.ParseDuration` syntax
 * ("1h2m3.5s", "-150ms", "2us", "0"), plus the day, week and year units config files and DQL
 * accept where asked. Writing: exactly Go's `time.Duration.String()` ("1m2s", "1.5µs", "0s"),
 * as the reference agent prints uptimes, timeouts and costs.
 */

const NS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n,
  μs: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
}

/** Units beyond Go's, for config values and DQL options. */
export const LONG_UNITS: Record<string, bigint> = {
  d: 86_400_000_000_000n,
  w: 7n * 86_400_000_000_000n,
  y: 365n * 86_400_000_000_000n,
}

const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h|d|w|y)/y

/**
 * Nanoseconds, or null when `s` is not a duration. `extra` allows more units (LONG_UNITS, or
 * some of them); Go's own never need asking.
 */
export function parseDuration(s: string, extra: Record<string, bigint> = {}): bigint | null {
  let rest = s.trim()
  const negative = rest.startsWith('-')
  if (negative || rest.startsWith('+')) rest = rest.slice(1)
  if (rest === '0') return 0n
  if (!rest) return null
  let total = 0n
  PART.lastIndex = 0
  while (PART.lastIndex < rest.length) {
    const at = PART.lastIndex
    const m = PART.exec(rest)
    const unit = m ? (NS[m[2]] ?? extra[m[2]]) : undefined
    if (!m || m.index !== at || unit === undefined) return null
    const [whole, frac = ''] = m[1].split('.')
    // The fraction as Go computes it: in floating point, truncated.
    const part = frac ? Math.trunc(Number(frac) * (Number(unit) / 10 ** frac.length)) : 0
    total += BigInt(whole || '0') * unit + BigInt(part)
  }
  return negative ? -total : total
}

/** Milliseconds (rounded), or null: config values and DQL options. */
export function parseMillis(s: string, extra: Record<string, bigint> = LONG_UNITS): number | null {
  const ns = parseDuration(s, extra)
  return ns === null ? null : Number((ns + 500_000n) / 1_000_000n)
}

function fraction(v: bigint, unit: bigint): string {
  const whole = v / unit
  const rest = v % unit
  if (rest === 0n) return String(whole)
  const digits = String(unit).length - 1
  return `${whole}.${String(rest).padStart(digits, '0').replace(/0+$/, '')}`
}

/** Go's `time.Duration.String()` of `ns` nanoseconds. */
export function formatDuration(ns: bigint | number): string {
  let d = BigInt(ns)
  const sign = d < 0n ? '-' : ''
  if (d < 0n) d = -d
  if (d === 0n) return '0s'
  if (d < 1_000n) return `${sign}${d}ns`
  if (d < 1_000_000n) return `${sign}${fraction(d, 1_000n)}µs`
  if (d < 1_000_000_000n) return `${sign}${fraction(d, 1_000_000n)}ms`
  const h = d / NS.h
  const m = (d % NS.h) / NS.m
  const s = fraction(d % NS.m, NS.s)
  return `${sign}${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s}s`
}

/** Go's rendering of a duration given in milliseconds. */
export function formatMillis(ms: number): string {
  return formatDuration(BigInt(Math.round(ms)) * 1_000_000n)
}
