/**
 * One aggregation bucket (agg_create): series keyed by their by-tags, each holding one
 * aggregate per field. `take` turns the series into metric points and, unless the bucket
 * keeps its values, empties it.
 *
 * Invariants:
 * - A bucket never holds more than `maxSeries` series: a value for a new series past that is
 *   refused (the caller counts it), values for existing series still add.
 * - A field's function is the one of its first value in the series (as the reference).
 * - Every aggregate is a float, as the reference emits them.
 */
import { Kind, type Point } from '../../shared/point.js'
import type { AggAdd, AggCreate, AggFn } from './ops.js'

interface Aggregate {
  fn: AggFn
  sum: number
  n: number
  value: number
}

interface Series {
  tags: [string, string][]
  fields: Map<string, Aggregate>
}

function fold(a: Aggregate, v: number): void {
  a.n++
  a.sum += v
  if (a.fn === 'set' || a.n === 1) a.value = v
  else if (a.fn === 'min') a.value = Math.min(a.value, v)
  else if (a.fn === 'max') a.value = Math.max(a.value, v)
}

function result(a: Aggregate): number {
  if (a.fn === 'sum') return a.sum
  if (a.fn === 'avg') return a.sum / a.n
  return a.value
}

export type AddResult = 'added' | 'series_limit'

export class Bucket {
  private series = new Map<string, Series>()
  /** Values added since the last flush, for `on_count`. */
  private added = 0

  constructor(
    readonly spec: AggCreate,
    private readonly maxSeries: number,
  ) {}

  get size(): number {
    return this.series.size
  }

  add(op: AggAdd): AddResult {
    const id = JSON.stringify([op.by, op.values])
    let s = this.series.get(id)
    if (!s) {
      if (this.series.size >= this.maxSeries) return 'series_limit'
      s = { tags: op.by.map((k, i) => [k, op.values[i]]), fields: new Map() }
      this.series.set(id, s)
    }
    let a = s.fields.get(op.field)
    if (!a) s.fields.set(op.field, (a = { fn: op.fn, sum: 0, n: 0, value: 0 }))
    fold(a, op.value)
    this.added++
    return 'added'
  }

  /** Whether `on_count` values arrived since the last flush. */
  get due(): boolean {
    return this.spec.count > 0 && this.added >= this.spec.count
  }

  /** The bucket's metric points at `time` (ns); emptied unless it keeps its values. */
  take(time: bigint): Point[] {
    const points: Point[] = []
    for (const s of this.series.values()) {
      const tags = new Map(Object.entries(this.spec.tags))
      for (const [k, v] of s.tags) tags.set(k, v)
      points.push({
        name: this.spec.bucket,
        tags: [...tags].map(([key, value]) => ({ key, value })),
        fields: [...s.fields].map(([key, a]) => ({ key, kind: Kind.FLOAT, value: result(a) })),
        time,
        warns: null,
      })
    }
    this.added = 0
    if (!this.spec.keep) this.series.clear()
    return points
  }
}
