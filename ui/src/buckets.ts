/**
 * Counts over time laid on buckets for the stacked bars (`stacked-bars.ts`): buckets of
 * `bucketMs` aligned to the epoch, as DQL aligns its intervals, so every group's count for one
 * bucket lands in the same bar. No DOM here, so the unit tests run it under Node.
 */

/** The part of a DQL series the bars read (api.ts's Series has it; that module needs a DOM). */
export interface CountSeries {
  tags?: Record<string, string | null>
  values: unknown[][]
}

export interface BarsOptions {
  range: [number, number]
  bucketMs: number
  /** The tag that names a series' group (`status`, `view_name`). */
  key: string
  colorOf: (group: string, index: number) => string
  height?: number
  onPick?: (picked: [number, number]) => void
}

export interface Laid {
  first: number
  buckets: Map<string, number>[]
  totals: Map<string, number>
}

/** The answer's counts by bucket and group; times outside the range are left out. */
export function layBuckets(series: CountSeries[], o: BarsOptions): Laid {
  const first = Math.floor(o.range[0] / o.bucketMs) * o.bucketMs
  const n = Math.max(1, Math.ceil((o.range[1] - first) / o.bucketMs))
  const buckets = Array.from({ length: n }, () => new Map<string, number>())
  const totals = new Map<string, number>()
  for (const s of series) {
    const group = String(s.tags?.[o.key] ?? '')
    for (const [t, v] of s.values) {
      const i = Math.floor((Number(t) - first) / o.bucketMs)
      const count = Number(v ?? 0)
      if (i < 0 || i >= n || !count) continue
      buckets[i].set(group, (buckets[i].get(group) ?? 0) + count)
      totals.set(group, (totals.get(group) ?? 0) + count)
    }
  }
  return { first, buckets, totals }
}
