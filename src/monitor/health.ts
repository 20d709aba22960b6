/**
 * The agent's health, judged once a second from the same registry Prometheus scrapes: `ok`, or
 * `degraded` with one reason per condition that holds (an upstream failing for longer than
 * allowed, a buffer above its share of capacity, pipeline errors piling up within a window, the
 * embedded workspace's database found damaged while it runs).
 * It never changes what the agent does; it tells probes and people.
 */
import type { HealthConfig } from '../config/schema-ops.js'
import type { Totals } from './figures.js'

export interface Health {
  status: 'ok' | 'degraded'
  reasons: string[]
}

export const HEALTHY: Health = { status: 'ok', reasons: [] }

/** The details (DuckDB's message, what to run) are in `/v1/ping`'s `workspace` and the log. */
export const WORKSPACE_DAMAGED = 'embedded workspace database damaged'

const pct = (part: number, whole: number) => (whole > 0 ? (part / whole) * 100 : 0)
const secs = (ms: number) => `${Math.round(ms / 1000)} s`

function upstreamReasons(t: Totals, now: number, c: HealthConfig): string[] {
  const out: string[] = []
  for (const [upstream, since] of [...t.failingSince].sort()) {
    const ms = now - since * 1000
    if (since > 0 && ms >= c.upstream_failing_after)
      out.push(`upstream ${upstream} failing for ${secs(ms)}`)
  }
  return out
}

function bufferReasons(t: Totals, c: HealthConfig): string[] {
  const out: string[] = []
  const limit = c.buffer_usage_percent
  let held = 0
  for (const [category, bytes] of [...t.bufferedBytes].sort()) {
    held += bytes
    const p = pct(bytes, t.capacity.get(category) ?? 0)
    if (p > limit) out.push(`buffer ${category} at ${p.toFixed(1)}% of its capacity`)
  }
  const p = pct(held, t.totalCapacity)
  if (p > limit) out.push(`buffer at ${p.toFixed(1)}% of its total capacity`)
  return out
}

export function pipelineErrorTotal(t: Totals): number {
  let sum = 0
  for (const [, [, errors]] of t.pipeline) sum += errors
  return sum
}

/** Keeps the pipeline error totals of the last window, to count the errors within it. */
export class HealthJudge {
  private readonly errors: { at: number; total: number }[] = []

  constructor(private readonly c: HealthConfig) {}

  judge(t: Totals, now: number): Health {
    const total = pipelineErrorTotal(t)
    this.errors.push({ at: now, total })
    while (this.errors.length > 1 && now - this.errors[0].at > this.c.pipeline_error_window)
      this.errors.shift()
    const recent = total - this.errors[0].total
    const reasons = [...upstreamReasons(t, now, this.c), ...bufferReasons(t, this.c)]
    if (this.c.pipeline_errors > 0 && recent >= this.c.pipeline_errors)
      reasons.push(`${recent} pipeline errors in the last ${secs(this.c.pipeline_error_window)}`)
    if (t.workspaceDamaged > 0) reasons.push(WORKSPACE_DAMAGED)
    return reasons.length ? { status: 'degraded', reasons } : HEALTHY
  }
}
