/**
 * The web vitals the RUM page shows, their thresholds (good up to the first limit, poor above
 * the second, as the Core Web Vitals are judged) and how a value reads. The SDK sends durations
 * in nanoseconds and CLS as a plain score. No DOM here, so the unit tests run it under Node.
 */
export interface Vital {
  field: string
  label: string
  /** good up to the first, poor above the second (ms for durations, the score for CLS) */
  limits: [number, number]
  duration: boolean
}

export const VITALS: Vital[] = [
  { field: 'largest_contentful_paint', label: 'LCP', limits: [2500, 4000], duration: true },
  { field: 'first_contentful_paint', label: 'FCP', limits: [1800, 3000], duration: true },
  { field: 'cumulative_layout_shift', label: 'CLS', limits: [0.1, 0.25], duration: false },
  { field: 'interaction_to_next_paint', label: 'INP', limits: [200, 500], duration: true },
  { field: 'loading_time', label: 'Loading time', limits: [2500, 4000], duration: true },
]

/** A nanosecond duration as people read it: `850 ms`, `2.40 s`. */
export function formatDuration(ns: number): string {
  const ms = ns / 1e6
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`
}

/** The vital's value in its unit, shown, and rated. */
export function rateVital(v: Vital, raw: number): { text: string; rating: string } {
  const value = v.duration ? raw / 1e6 : raw
  const rating = value <= v.limits[0] ? 'good' : value <= v.limits[1] ? 'fair' : 'poor'
  return { text: v.duration ? formatDuration(raw) : value.toFixed(3), rating }
}
