/** The wire shape of `GET /v1/monitor`: what `ferry monitor` and the `/monitor` page show. */
import type { RecentError } from '../telemetry/recent-errors.js'
import type { Health } from './health.js'

export interface CategoryRow {
  category: string
  in_per_s: number
  out_per_s: number
  in_total: number
  out_total: number
  buffered_points: number
  buffered_bytes: number
  /** Age of the oldest buffered batch, seconds (0 when empty). */
  oldest_age_s: number
}

export interface PipelineRow {
  category: string
  script: string
  points: number
  errors: number
  /** Mean script time per point, microseconds. */
  us_per_point: number
}

/** One input (collector), or a write API `input` parameter value, as its metrics show it. */
export interface InputRow {
  input: string
  runs: number
  points: number
  errors: number
  /** Mean collection time, milliseconds. */
  ms_per_run: number
  /** Seconds since the last run (-1: never ran). */
  last_run_s: number
}

export interface Snapshot {
  version: string
  host: string
  uptime_s: number
  /** Unix milliseconds of the sample. */
  at: number
  /** `ok`, or `degraded` with the reasons ([health] thresholds). */
  health: Health
  categories: CategoryRow[]
  upload: { failures: number; retries: number; dead_letters: number; dropped_points: number }
  decode: { queue: number; utilization: number }
  pipeline: PipelineRow[]
  inputs: InputRow[]
  errors: RecentError[]
  /** Points per second in and out, one entry per sample, oldest first. */
  history: { at: number; in: number; out: number }[]
}
