/**
 * Units of values and how they read: `12.5%`, `3.2 GiB`, `850 ms`. The catalog stores no unit,
 * so a column's unit comes from what Ferry's own inputs write (`mem` fields are bytes, `cpu`'s
 * `usage_*` are percent) and from common name patterns (`*_bytes`, `*_percent`, `*_ms`); a
 * chart's saved unit overrides it. An aggregate column (`avg(used)`) has its field's unit,
 * except counts. No DOM here, so the unit tests run it under Node.
 */
export type Unit = 'none' | 'percent' | 'bytes' | 'bytes/s' | 'ns' | 'us' | 'ms' | 's'

/** The unit choices of a dashboard chart: `auto` guesses from the column. */
export const UNITS: [string, string][] = [
  ['auto', 'unit: auto'],
  ['none', 'number'],
  ['percent', 'percent (0-100)'],
  ['bytes', 'bytes'],
  ['bytes/s', 'bytes/s'],
  ['ns', 'nanoseconds'],
  ['us', 'microseconds'],
  ['ms', 'milliseconds'],
  ['s', 'seconds'],
]

/** Fields of Ferry's host inputs that no name pattern below gets right. */
const KNOWN: Record<string, Record<string, Unit>> = {
  mem: { huge_pages_free: 'none', huge_page_total: 'none', '*': 'bytes' },
  swap: { total: 'bytes', used: 'bytes', free: 'bytes', in: 'bytes', out: 'bytes' },
  disk: { total: 'bytes', used: 'bytes', free: 'bytes' },
  diskio: { read_time: 'ms', write_time: 'ms', io_time: 'ms', weighted_io_time: 'ms' },
  system: { uptime: 's' },
}

const PATTERNS: [RegExp, Unit][] = [
  [/percent|_pct$|^usage_|utilization/, 'percent'],
  [/bytes.*\/s(ec)?$|_bps$/, 'bytes/s'],
  [/bytes|_size$|^rss$|^vms$/, 'bytes'],
  [/_ns$|^duration_ns$/, 'ns'],
  [/_us$/, 'us'],
  [/_ms$|_millis(econds)?$|latency$/, 'ms'],
  [/_seconds?$|_secs?$|^uptime$/, 's'],
]

/** The field a result column reads, and whether an outer function counts instead. */
function fieldOf(column: string): { field: string; counted: boolean } {
  let field = column.trim()
  let counted = false
  for (let m = /^(\w+)\((.*)\)$/.exec(field); m; m = /^(\w+)\((.*)\)$/.exec(field)) {
    if (/^count/i.test(m[1])) counted = true
    field = m[2].split(',')[0].trim()
  }
  return { field, counted }
}

/**
 * The unit of `column` of `measurement` in namespace `ns` (`M`, `T`, `R`, ...): spans' and
 * RUM's `duration` are micro- and nanoseconds in DataKit's data.
 */
export function unitOf(column: string, measurement = '', ns = 'M'): Unit {
  const { field, counted } = fieldOf(column)
  if (counted) return 'none'
  const known = KNOWN[measurement]
  if (known && ns === 'M') {
    const u = known[field] ?? (/percent/.test(field) ? undefined : known['*'])
    if (u) return u
  }
  if (field === 'duration') return ns === 'T' ? 'us' : ns === 'R' ? 'ns' : 'none'
  return PATTERNS.find(([re]) => re.test(field))?.[1] ?? 'none'
}

/** Digits people read: integers whole, others to 2 decimals, small ones to 3 significant. */
export function formatNumber(n: number, decimals?: number): string {
  if (!Number.isFinite(n)) return String(n)
  if (decimals !== undefined) return n.toFixed(decimals)
  if (Number.isInteger(n)) return String(n)
  return String(Number(Math.abs(n) >= 1 ? n.toFixed(2) : n.toPrecision(3)))
}

/** `n` in the largest of `steps` ([factor to the next, name]) it reaches. */
function scaled(n: number, steps: [number, string][], decimals?: number): string {
  let i = 0
  let v = n
  while (i < steps.length - 1 && Math.abs(v) >= steps[i][0]) v /= steps[i++][0]
  const digits = decimals ?? (i === 0 || Number.isInteger(v) ? undefined : 1)
  return `${formatNumber(v, digits)} ${steps[i][1]}`
}

const BYTES: [number, string][] = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'].map((u) => [1024, u])
const NANOS: [number, string][] = [
  [1000, 'ns'],
  [1000, 'µs'],
  [1000, 'ms'],
  [60, 's'],
  [60, 'min'],
  [24, 'h'],
  [Infinity, 'd'],
]
const TO_NANOS: Record<string, number> = { ns: 1, us: 1e3, ms: 1e6, s: 1e9 }

/** A value with its unit, `decimals` digits after the point when given. */
export function formatValue(n: number, unit: Unit | string = 'none', decimals?: number): string {
  if (!Number.isFinite(n)) return String(n)
  if (unit === 'percent') return `${formatNumber(n, decimals)}%`
  if (unit === 'bytes') return scaled(n, BYTES, decimals)
  if (unit === 'bytes/s') return `${scaled(n, BYTES, decimals)}/s`
  if (TO_NANOS[unit]) return scaled(n * TO_NANOS[unit], NANOS, decimals)
  return formatNumber(n, decimals)
}
