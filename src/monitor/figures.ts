/**
 * Reads the figures the monitor shows out of the agent's metrics registry, so that the monitor
 * sees exactly what Prometheus sees and the components need no hooks of their own.
 */
import type { Registry } from 'prom-client'

export interface Totals {
  /** Points accepted, by category. */
  in: Map<string, number>
  /** Points delivered upstream (all upstreams), by category. */
  out: Map<string, number>
  bufferedPoints: Map<string, number>
  bufferedBytes: Map<string, number>
  oldestAge: Map<string, number>
  uploadFailures: number
  retries: number
  deadLetters: number
  dropped: number
  /** Pipeline: `category/script` -> [points, errors, seconds]. */
  pipeline: Map<string, [number, number, number]>
  decodeQueue: number
  decodeUtilization: number
  /** Inputs: name -> [runs, points, errors, seconds, last run (Unix s)]. */
  inputs: Map<string, [number, number, number, number, number]>
  /** Upstream -> Unix seconds of its first failure since its last success (0: none). */
  failingSince: Map<string, number>
  /** Category -> bytes the buffer may hold for it. */
  capacity: Map<string, number>
  totalCapacity: number
  /** 1 when the running embedded workspace met a damaged database file, else 0. */
  workspaceDamaged: number
}

type Values = { value: number; labels: Record<string, string | number> }[]

async function values(registry: Registry, name: string): Promise<Values> {
  const m = registry.getSingleMetric(name)
  return m ? ((await m.get()).values as Values) : []
}

async function sumBy(registry: Registry, name: string, label?: string) {
  const out = new Map<string, number>()
  for (const v of await values(registry, name)) {
    const key = label ? String(v.labels[label] ?? '') : ''
    out.set(key, (out.get(key) ?? 0) + v.value)
  }
  return out
}

async function total(registry: Registry, name: string, skip?: (l: Values[0]['labels']) => boolean) {
  let sum = 0
  for (const v of await values(registry, name)) if (!skip?.(v.labels)) sum += v.value
  return sum
}

async function pipeline(registry: Registry): Promise<Totals['pipeline']> {
  const out: Totals['pipeline'] = new Map()
  const names = [
    'ferry_pipeline_points_total',
    'ferry_pipeline_errors_total',
    'ferry_pipeline_run_seconds_total',
  ]
  for (const [i, name] of names.entries())
    for (const v of await values(registry, name)) {
      const key = `${v.labels.category}/${v.labels.script}`
      const row = out.get(key) ?? [0, 0, 0]
      row[i] += v.value
      out.set(key, row)
    }
  return out
}

async function inputs(registry: Registry): Promise<Totals['inputs']> {
  const out: Totals['inputs'] = new Map()
  const row = (k: string) => out.get(k) ?? (out.set(k, [0, 0, 0, 0, 0]).get(k) as number[])
  for (const v of await values(registry, 'ferry_input_collect_seconds')) {
    const r = row(String(v.labels.input))
    const name = (v as { metricName?: string }).metricName
    if (name?.endsWith('_count')) r[0] += v.value
    if (name?.endsWith('_sum')) r[3] += v.value
  }
  const add = async (metric: string, i: number) => {
    for (const v of await values(registry, metric)) row(String(v.labels.input))[i] += v.value
  }
  await add('ferry_input_points_total', 1)
  await add('ferry_input_errors_total', 2)
  await add('ferry_input_last_run_timestamp_seconds', 4)
  return out
}

export async function readTotals(registry: Registry): Promise<Totals> {
  return {
    in: await sumBy(registry, 'ferry_write_points_total', 'category'),
    out: await sumBy(registry, 'ferry_upload_points_total', 'category'),
    bufferedPoints: await sumBy(registry, 'ferry_buffer_points', 'category'),
    bufferedBytes: await sumBy(registry, 'ferry_buffer_bytes', 'category'),
    oldestAge: await sumBy(registry, 'ferry_buffer_oldest_age_seconds', 'category'),
    uploadFailures: await total(registry, 'ferry_upload_requests_total', (l) => l.outcome === 'ok'),
    retries: await total(registry, 'ferry_upload_retries_total'),
    deadLetters: await total(registry, 'ferry_dead_letters_total'),
    dropped: await total(registry, 'ferry_dropped_points_total'),
    pipeline: await pipeline(registry),
    decodeQueue: await total(registry, 'ferry_decode_queue_tasks'),
    decodeUtilization: await total(registry, 'ferry_decode_utilization_ratio'),
    inputs: await inputs(registry),
    failingSince: await sumBy(registry, 'ferry_upload_failing_since_timestamp_seconds', 'upstream'),
    capacity: await sumBy(registry, 'ferry_buffer_capacity_bytes', 'category'),
    totalCapacity: await total(registry, 'ferry_buffer_total_capacity_bytes'),
    workspaceDamaged: await total(registry, 'ferry_embedded_workspace_damaged'),
  }
}
