/**
 * A view's time range: relative (`{last: '1h'}`, which follows the clock on every run) or
 * absolute (`{from, to}` in ms, which a drag on a chart or the custom picker sets). It lives in
 * the URL as `range=1h` or `from=<ms>&to=<ms>`, so a shared or reloaded view shows the same
 * span. No DOM here, so the unit tests run it under Node; times shown are the browser's own.
 */
import { RANGES, rangeMs } from './time.js'

export type ViewRange = { last: string } | { from: number; to: number }

const RELATIVE = /^\d+[mhd]$/

/** The range a URL names: absolute ends when both are sane, else `range`, else `fallback`. */
export function rangeFromParams(p: URLSearchParams, fallback = '1h'): ViewRange {
  const [from, to] = [Number(p.get('from')), Number(p.get('to'))]
  if (p.get('from') && p.get('to') && Number.isFinite(from) && Number.isFinite(to) && to > from)
    return { from, to }
  const last = p.get('range') ?? ''
  return { last: RELATIVE.test(last) ? last : fallback }
}

/** The URL parameters of a range (the counterpart of `rangeFromParams`). */
export function rangeParams(r: ViewRange): Record<string, string> {
  return 'last' in r ? { range: r.last } : { from: String(r.from), to: String(r.to) }
}

/** [start, end] in ms, for the `time_range` option and the chart's axis. */
export function resolveRange(r: ViewRange, now = Date.now()): [number, number] {
  return 'last' in r ? [now - rangeMs(r.last), now] : [r.from, r.to]
}

/** The span in ms, for the automatic interval. */
export function spanOf(r: ViewRange): number {
  return 'last' in r ? rangeMs(r.last) : r.to - r.from
}

const pad = (n: number) => String(n).padStart(2, '0')

/** A time as `<input type=datetime-local step=1>` takes it: `2026-11-26T14:05:00`, local. */
export function localInput(ms: number): string {
  const d = new Date(ms)
  const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
  return `${day}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
}

/** A datetime-local value as ms (read as local time), or null when empty or not a time. */
export function parseLocalInput(v: string): number | null {
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(v)) return null
  const ms = new Date(v).getTime()
  return Number.isFinite(ms) ? ms : null
}

/** How a range reads in the toolbar: `last hour`, or its two ends. */
export function rangeLabel(r: ViewRange): string {
  if ('last' in r) return RANGES.find(([v]) => v === r.last)?.[1] ?? `last ${r.last}`
  return `${localInput(r.from).replace('T', ' ')} to ${localInput(r.to).replace('T', ' ')}`
}

/** The range twice as long around the same middle (a zoom out), never ending past `now`. */
export function zoomOut(r: ViewRange, now = Date.now()): ViewRange {
  const [a, b] = resolveRange(r, now)
  const to = Math.min(now, b + (b - a) / 2)
  return { from: Math.round(to - 2 * (b - a)), to: Math.round(to) }
}
