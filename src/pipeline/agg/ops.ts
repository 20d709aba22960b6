/**
 * What `agg_create` and `agg_metric` hand back from a decode worker: aggregation operations,
 * in the order the script made them. Scripts run in the workers but buckets live on the main
 * thread (buckets.ts), so the library only records; `apply.ts` gathers the operations of the
 * points whose run succeeded, and the decode result carries them to `accept`.
 *
 * Invariants:
 * - An operation is plain data (structured-clone safe), validated in the worker: a bucket
 *   name, a known category, a known function, equal by-name and by-value lists.
 * - A task reports each bucket's `create` at most once (scripts call agg_create on every
 *   point; only the first call of a bucket can matter).
 */
import { CATEGORIES, isCategory, type Category } from '../../shared/category.js'

export const AGG_FNS = ['avg', 'sum', 'min', 'max', 'set'] as const
export type AggFn = (typeof AGG_FNS)[number]

export interface AggCreate {
  op: 'create'
  category: Category
  bucket: string
  /** Flush period in ms; 0 for none (then `count` must be positive). */
  intervalMs: number
  /** Flush after this many added values; 0 for none. */
  count: number
  /** Keep the aggregated values after a flush (they keep growing). */
  keep: boolean
  /** Tags every point of the bucket carries. */
  tags: Record<string, string>
}

export interface AggAdd {
  op: 'add'
  category: Category
  bucket: string
  field: string
  fn: AggFn
  by: string[]
  values: string[]
  value: number
}

export type AggOp = AggCreate | AggAdd

export function isAggFn(s: unknown): s is AggFn {
  return typeof s === 'string' && (AGG_FNS as readonly string[]).includes(s)
}

const SHORT = new Map<string, string>(
  Object.entries(CATEGORIES).map(([name, short]) => [short, name]),
)

/** A category by its full name (`metric`) or the reference's short one (`M`); null if neither. */
export function aggCategory(v: unknown): Category | null {
  if (v === null || v === undefined) return 'metric'
  if (typeof v !== 'string') return null
  if (isCategory(v)) return v
  return (SHORT.get(v) as Category | undefined) ?? null
}

/** The ops of a task's points, with every bucket's `create` kept once. */
export function gatherOps(lists: AggOp[][]): AggOp[] {
  const out: AggOp[] = []
  const created = new Set<string>()
  for (const list of lists)
    for (const op of list) {
      if (op.op === 'create') {
        const id = `${op.category}/${op.bucket}`
        if (created.has(id)) continue
        created.add(id)
      }
      out.push(op)
    }
  return out
}
