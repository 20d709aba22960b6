/**
 * agg_create and agg_metric, the reference's metric aggregation from scripts. They only
 * record operations on the point (`p.agg`); the buckets live on the main thread
 * (../agg/buckets.ts), which adds the values and emits the metric points.
 *
 * As the reference: a key named by `agg_by` or `agg_field` is read from the script's
 * variables first, then the point (the compiler passes a variable's value with its name);
 * an `agg_by` key that is absent or not a string, an absent `agg_field`, an unknown
 * `agg_fn` or category make the call do nothing. Values are read as Go's `cast.ToFloat64`
 * reads them (a number, a bool as 1/0, a numeric string; anything else 0).
 */
import { FerryError } from '../../errors.js'
import { parseDuration } from '../../shared/duration.js'
import { aggCategory, isAggFn, type AggOp } from '../agg/ops.js'
import { isKeyRef, valArg } from './context.js'
import { getKey, type PlPoint, type PlValue } from './pl-point.js'
import type { LibFn } from './lib-fn.js'

function record(p: PlPoint, op: AggOp): void {
  p.budget?.charge(JSON.stringify(op).length)
  ;(p.agg ??= []).push(op)
}

function bucketName(p: PlPoint, a: unknown, fn: string): string {
  const v = valArg(p, a)
  if (typeof v !== 'string' || v === '')
    throw new FerryError('badRequest', `${fn}: the bucket must be a non-empty string`)
  return v
}

function interval(v: PlValue): number {
  if (v === null) return 60_000
  const ns = typeof v === 'string' ? parseDuration(v) : null
  if (ns === null) throw new FerryError('badRequest', `agg_create: on_interval ${String(v)}`)
  return ns <= 0n ? 0 : Math.max(1, Number(ns / 1_000_000n))
}

function constTags(v: PlValue): Record<string, string> {
  const tags: Record<string, string> = {}
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return tags
  for (const [k, t] of Object.entries(v)) if (typeof t === 'string') tags[k] = t
  return tags
}

function aggCreate(p: PlPoint, a: unknown[]): void {
  const bucket = bucketName(p, a[0], 'agg_create')
  const intervalMs = interval(valArg(p, a[1]))
  const count = valArg(p, a[2])
  const n = typeof count === 'number' && Number.isInteger(count) && count > 0 ? count : 0
  if (intervalMs <= 0 && n <= 0)
    throw new FerryError('badRequest', 'agg_create: on_interval and on_count are both 0')
  const category = aggCategory(valArg(p, a[5]))
  if (category === null) return
  const keep = valArg(p, a[3]) === true
  record(p, {
    op: 'create',
    category,
    bucket,
    intervalMs,
    count: n,
    keep,
    tags: constTags(valArg(p, a[4])),
  })
}

/** A key given by name (`.js` scripts) or by reference (Platypus, variables first). */
function keyValue(p: PlPoint, a: unknown): PlValue {
  if (isKeyRef(a)) return valArg(p, a)
  return typeof a === 'string' ? (getKey(p, a) ?? null) : null
}

/** Go's cast.ToFloat64. */
export function toFloat(v: PlValue): number {
  if (typeof v === 'number') return v
  if (typeof v === 'bigint') return Number(v)
  if (typeof v === 'boolean') return v ? 1 : 0
  if (typeof v === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(v))
    return Number(v)
  return 0
}

function aggMetric(p: PlPoint, a: unknown[]): void {
  const bucket = bucketName(p, a[0], 'agg_metric')
  const field = valArg(p, a[1])
  const fn = valArg(p, a[2])
  const byArg = a[3]
  if (typeof field !== 'string' || !Array.isArray(byArg) || byArg.length === 0)
    throw new FerryError('badRequest', 'agg_metric: expected a new_field and a list agg_by')
  const category = aggCategory(valArg(p, a[5]))
  if (!isAggFn(fn) || category === null) return
  const by: string[] = []
  const values: string[] = []
  for (const k of byArg) {
    const v = keyValue(p, k)
    if (typeof v !== 'string') return
    by.push(isKeyRef(k) ? k.$k : String(k))
    values.push(v)
  }
  const value = keyValue(p, a[4])
  if (value === null) return
  record(p, { op: 'add', category, bucket, field, fn, by, values, value: toFloat(value) })
}

export const AGG_LIB_FNS: Record<string, LibFn> = {
  agg_create: {
    params: ['bucket', 'on_interval', 'on_count', 'keep_value', 'const_tags', 'category'],
    run: (_c, p, a) => aggCreate(p, a),
  },
  agg_metric: {
    params: ['bucket', 'new_field', 'agg_fn', 'agg_by', 'agg_field', 'category'],
    keyNames: ['agg_by', 'agg_field'],
    run: (_c, p, a) => aggMetric(p, a),
  },
}
