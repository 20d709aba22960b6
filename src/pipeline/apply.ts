/**
 * Runs the pipeline over the points of one write, inside the decode worker: points grouped by
 * script, each group converted, run (in chunks of `maxBatch`) and converted back, in the
 * original order. Dropped points leave; points from create_point join at the end; points
 * of a failed run go on unchanged. The agg_create/agg_metric operations of the points whose
 * run succeeded (dropped ones too: the call happened) leave with the result, in order.
 */
import type { Point } from '../shared/point.js'
import { gatherOps, type AggOp } from './agg/ops.js'
import type { PipelineEngine } from './engine.js'
import { fromPl, toPl, type PlPoint } from './lib/pl-point.js'
import { selectScript, type Selection } from './select.js'

export interface ScriptStat {
  script: string
  points: number
  dropped: number
  errors: number
  firstError: string | null
  created: number
  batch: boolean
  seconds: number
  /** Points refused by a per-run cap (their run failed; they went on unchanged). */
  limited: number
}

export interface Applied {
  points: Point[]
  stats: ScriptStat[]
  /** Aggregation operations for the main thread's buckets; absent when there are none. */
  agg?: AggOp[]
}

function group(category: string, points: Point[], sel: Selection): Map<string, number[]> {
  const groups = new Map<string, number[]>()
  for (let i = 0; i < points.length; i++) {
    const name = selectScript(category, points[i], sel)
    if (name === null) continue
    let g = groups.get(name)
    if (!g) groups.set(name, (g = []))
    g.push(i)
  }
  return groups
}

function runGroup(
  engine: PipelineEngine,
  category: string,
  script: string,
  pls: PlPoint[],
  maxBatch: number,
): ScriptStat {
  const started = performance.now()
  const stat: ScriptStat = {
    script,
    points: 0,
    dropped: 0,
    errors: 0,
    firstError: null,
    created: 0,
    batch: false,
    seconds: 0,
    limited: 0,
  }
  for (let at = 0; at < pls.length; at += maxBatch) {
    const r = engine.run(category, script, pls.slice(at, at + maxBatch))
    stat.points += r.points
    stat.dropped += r.dropped
    stat.errors += r.errors
    stat.firstError ??= r.firstError
    stat.batch = r.batch
    stat.limited += r.limited
  }
  stat.seconds = (performance.now() - started) / 1000
  return stat
}

export function applyPipeline(
  engine: PipelineEngine,
  category: string,
  points: Point[],
  sel: Selection,
  maxBatch: number,
): Applied {
  const groups = group(category, points, sel)
  if (groups.size === 0) return { points, stats: [] }
  const out: (Point | null)[] = points.slice()
  const created: Point[] = []
  const stats: ScriptStat[] = []
  const ops: AggOp[][] = []
  for (const [script, idx] of groups) {
    const pls = idx.map((i) => toPl(points[i]))
    const stat = runGroup(engine, category, script, pls, maxBatch)
    pls.forEach((pl, k) => {
      if (pl.agg && pl.error === null) ops.push(pl.agg)
      out[idx[k]] = pl.dropped && pl.error === null ? null : fromPl(pl)
      if (pl.created && pl.error === null) {
        for (const c of pl.created) created.push(fromPl(c))
        stat.created += pl.created.length
      }
    })
    stats.push(stat)
  }
  const kept = out.filter((p): p is Point => p !== null)
  const applied: Applied = { points: kept.concat(created), stats }
  if (ops.length) applied.agg = gatherOps(ops)
  return applied
}
