/** Relative time ranges for the pickers, and the bucket interval that gives about 300 points. */
export const RANGES: [string, string][] = [
  ['15m', 'last 15 minutes'],
  ['1h', 'last hour'],
  ['6h', 'last 6 hours'],
  ['24h', 'last 24 hours'],
  ['7d', 'last 7 days'],
]

const UNIT: Record<string, number> = { m: 60_000, h: 3600_000, d: 86_400_000 }

export function rangeMs(range: string): number {
  const m = /^(\d+)([mhd])$/.exec(range)
  return m ? Number(m[1]) * UNIT[m[2]] : 3600_000
}

/** The `time_range` option for the last `range`: [start, end] in ms. */
export function timeRange(range: string, now = Date.now()): [number, number] {
  return [now - rangeMs(range), now]
}

/**
 * A DQL interval (`12s`, `5m`, ...) for about `points` buckets (300: a line per series that
 * reads as a line, as Grafana aims at one point per few pixels) over the range, given by name
 * (`1h`) or as its span in ms (an absolute range), at least 1 s.
 */
export function interval(range: string | number, points = 300): string {
  const span = typeof range === 'number' ? range : rangeMs(range)
  const secs = Math.max(1, Math.ceil(span / 1000 / points))
  return secs % 60 ? `${secs}s` : `${secs / 60}m`
}
