/**
 * Samples the agent's figures once a second and keeps the last two minutes of throughput, for
 * `GET /v1/monitor` (read by `ferry monitor` and the `/monitor` page). Rates are differences of
 * counters between samples, so a sample costs a registry read and nothing on the write path.
 */
import type { Registry } from 'prom-client'
import type { Component } from '../component.js'
import type { Identity } from '../identity.js'
import type { RecentErrors } from '../telemetry/recent-errors.js'
import type { HealthConfig } from '../config/schema-ops.js'
import { readTotals, type Totals } from './figures.js'
import { HEALTHY, HealthJudge, type Health } from './health.js'
import type { CategoryRow, InputRow, PipelineRow, Snapshot } from './snapshot.js'

const rate = (now: number, before: number | undefined, dt: number) =>
  dt > 0 && before !== undefined ? Math.max(0, now - before) / dt : 0

export class Monitor implements Component {
  readonly name = 'monitor'
  private timer: NodeJS.Timeout | null = null
  private prev: { at: number; totals: Totals } | null = null
  private rows: CategoryRow[] = []
  private last: Totals | null = null
  private readonly history: Snapshot['history'] = []
  private readonly judge: HealthJudge | null
  private state: Health = HEALTHY

  constructor(
    private readonly registry: Registry,
    private readonly identity: Identity,
    private readonly recent: RecentErrors,
    /** Absent: always `ok` (tests of other things). */
    health?: HealthConfig,
    private readonly intervalMs = 1000,
    private readonly keep = 120,
  ) {
    this.judge = health ? new HealthJudge(health) : null
  }

  /** As of the last sample. */
  health(): Health {
    return this.state
  }

  async start(): Promise<void> {
    if (this.timer) return
    await this.sample()
    this.timer = setInterval(() => void this.sample().catch(() => undefined), this.intervalMs)
    this.timer.unref()
  }

  async sample(): Promise<void> {
    const at = Date.now()
    const totals = await readTotals(this.registry)
    const dt = this.prev ? (at - this.prev.at) / 1000 : 0
    const before = this.prev?.totals
    const cats = new Set([
      ...totals.in.keys(),
      ...totals.out.keys(),
      ...totals.bufferedPoints.keys(),
    ])
    const idle = (c: string) =>
      !totals.in.get(c) && !totals.out.get(c) && !totals.bufferedPoints.get(c)
    this.rows = [...cats]
      .filter((c) => !idle(c))
      .sort()
      .map((category) => ({
        category,
        in_per_s: rate(totals.in.get(category) ?? 0, before?.in.get(category) ?? 0, dt),
        out_per_s: rate(totals.out.get(category) ?? 0, before?.out.get(category) ?? 0, dt),
        in_total: totals.in.get(category) ?? 0,
        out_total: totals.out.get(category) ?? 0,
        buffered_points: totals.bufferedPoints.get(category) ?? 0,
        buffered_bytes: totals.bufferedBytes.get(category) ?? 0,
        oldest_age_s: totals.oldestAge.get(category) ?? 0,
      }))
    if (this.prev) {
      const sum = (k: 'in_per_s' | 'out_per_s') => this.rows.reduce((s, r) => s + r[k], 0)
      this.history.push({ at, in: sum('in_per_s'), out: sum('out_per_s') })
      if (this.history.length > this.keep) this.history.shift()
    }
    this.prev = { at, totals }
    this.last = totals
    if (this.judge) this.state = this.judge.judge(totals, at)
  }

  private pipelineRows(t: Totals): PipelineRow[] {
    return [...t.pipeline]
      .map(([key, [points, errors, seconds]]) => {
        const [category, script] = key.split('/')
        return {
          category,
          script,
          points,
          errors,
          us_per_point: points ? (seconds / points) * 1e6 : 0,
        }
      })
      .sort((a, b) => b.points - a.points)
      .slice(0, 10)
  }

  private inputRows(t: Totals, now: number): InputRow[] {
    return [...t.inputs]
      .map(([input, [runs, points, errors, seconds, last]]) => ({
        input,
        runs,
        points,
        errors,
        ms_per_run: runs ? (seconds / runs) * 1000 : 0,
        last_run_s: last ? Math.max(0, Math.round(now / 1000 - last)) : -1,
      }))
      .sort((a, b) => a.input.localeCompare(b.input))
  }

  snapshot(): Snapshot {
    const t = this.last
    return {
      version: this.identity.version,
      host: this.identity.host,
      uptime_s: Math.floor((Date.now() - this.identity.startedAt) / 1000),
      at: this.prev?.at ?? Date.now(),
      health: this.state,
      categories: this.rows,
      upload: {
        failures: t?.uploadFailures ?? 0,
        retries: t?.retries ?? 0,
        dead_letters: t?.deadLetters ?? 0,
        dropped_points: t?.dropped ?? 0,
      },
      decode: { queue: t?.decodeQueue ?? 0, utilization: t?.decodeUtilization ?? 0 },
      pipeline: t ? this.pipelineRows(t) : [],
      inputs: t ? this.inputRows(t, Date.now()) : [],
      errors: this.recent.list(),
      history: [...this.history],
    }
  }

  async shutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }
}
