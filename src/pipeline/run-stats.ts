/**
 * What one run of a script did to its points, and how a point is marked failed.
 *
 * Invariants:
 * - A failed point keeps its first error and is done: no later call changes it.
 * - Library errors for one point mark that point only; a per-run cap (CapExceeded) also stops
 *   the run.
 */
import { CapExceeded } from './lib/budget.js'
import type { CallCtx } from './lib/context.js'
import type { PlPoint } from './lib/pl-point.js'
import type { LibFn } from './lib/registry.js'
import { normalisePointStatus } from './lib/status.js'

export interface RunStats {
  points: number
  dropped: number
  errors: number
  firstError: string | null
  batch: boolean
  /** Points refused by a per-run cap (max_created_points, max_output_bytes). */
  limited: number
}

export function fail(p: PlPoint, msg: string): void {
  p.error = msg
  p.done = true
}

/** Runs one library function on one point; its error marks that point only. */
export function guarded(f: LibFn, ctx: CallCtx, p: PlPoint, args: unknown[]): unknown {
  try {
    return f.run(ctx, p, args)
  } catch (e) {
    fail(p, (e as Error)?.message ?? String(e))
    if (e instanceof CapExceeded) throw e
    return null
  }
}

/** Counts a finished run's points; logging points that did not fail get their status mapped. */
export function finishRun(
  category: string,
  points: PlPoint[],
  ctx: CallCtx,
  batch: boolean,
  limited: number,
): RunStats {
  const stats: RunStats = {
    points: points.length,
    dropped: 0,
    errors: 0,
    firstError: null,
    batch,
    limited,
  }
  for (const p of points) {
    if (p.error !== null) {
      stats.errors++
      stats.firstError ??= p.error
      continue
    }
    if (category === 'logging' && ctx.statusMapping) normalisePointStatus(p)
    if (p.dropped) stats.dropped++
  }
  return stats
}
