/**
 * The one prom-client registry of the agent. Only `events.ts` increments these; everything
 * else asks an event to happen. Label values are bounded (categories, error codes, routes).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import { Tally } from './tally.js'

/**
 * prom-client's defaults include three gauges named `*_total` (sums of the per-type gauges of
 * the same name without the suffix), which promtool rejects: dropped.
 */
const MISNAMED_DEFAULTS = ['active_handles', 'active_requests', 'active_resources']

function defaultMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry, prefix: 'ferry_' })
  for (const name of MISNAMED_DEFAULTS) registry.removeSingleMetric(`ferry_nodejs_${name}_total`)
}

export function createMetrics() {
  const registry = new Registry()
  defaultMetrics(registry)
  // Counted once per request: plain numbers, published when read (tally.ts).
  const httpRequestsTally = new Tally<'route' | 'method' | 'status'>()
  const pointsReceivedTally = new Tally<'category'>()
  const m = {
    registry,
    httpRequestsTally,
    pointsReceivedTally,
    httpRequests: new Counter({
      name: 'ferry_http_requests_total',
      help: 'HTTP requests answered, by route, method and status code.',
      labelNames: ['route', 'method', 'status'] as const,
      registers: [registry],
      collect() {
        httpRequestsTally.flushInto(this)
      },
    }),
    httpDuration: new Histogram({
      name: 'ferry_http_request_duration_seconds',
      help: 'Time to answer an HTTP request.',
      labelNames: ['route', 'method'] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    httpBodyBytes: new Histogram({
      name: 'ferry_http_request_body_size_bytes',
      help: 'Request body sizes on write routes (as sent, before decompression).',
      labelNames: ['category'] as const,
      buckets: [256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216],
      registers: [registry],
    }),
    internalErrors: new Counter({
      name: 'ferry_internal_errors_total',
      help: 'Unexpected errors caught and contained (a bug or a library fault), by where.',
      labelNames: ['where'] as const,
      registers: [registry],
    }),
    tagChanges: new Counter({
      name: 'ferry_global_tag_changes_total',
      help: 'Global tag changes made through the API, by table and method.',
      labelNames: ['table', 'method'] as const,
      registers: [registry],
    }),
    tagsChangedAt: new Gauge({
      name: 'ferry_global_tags_last_change_timestamp_seconds',
      help: 'Unix time of the last global tag change through the API, by table.',
      labelNames: ['table'] as const,
      registers: [registry],
    }),
    lastErrors: new Counter({
      name: 'ferry_last_error_reports_total',
      help: 'Errors reported by external collectors on /v1/lasterror, by input (first 64 names; the rest as "other").',
      labelNames: ['input'] as const,
      registers: [registry],
    }),
    lastErrorAt: new Gauge({
      name: 'ferry_last_error_timestamp_seconds',
      help: 'Unix time of the last error reported on /v1/lasterror, by input.',
      labelNames: ['input'] as const,
      registers: [registry],
    }),
    pointsReceived: new Counter({
      name: 'ferry_write_points_total',
      help: 'Points accepted by the write API, by category.',
      labelNames: ['category'] as const,
      registers: [registry],
      collect() {
        pointsReceivedTally.flushInto(this)
      },
    }),
    writesRejected: new Counter({
      name: 'ferry_write_rejected_requests_total',
      help: 'Write requests refused, by category and error code (nothing of them was kept).',
      labelNames: ['category', 'code'] as const,
      registers: [registry],
    }),
    decodeShareRefusals: new Counter({
      name: 'ferry_decode_share_refusals_total',
      help: 'Writes answered 429 because their client was past its share of decoding while the decoders were busy ([decode] client_share).',
      registers: [registry],
    }),
    decodeWorkerRecycles: new Counter({
      name: 'ferry_decode_worker_recycles_total',
      help: 'Decode workers replaced after a task left their heap past [decode] recycle_heap.',
      registers: [registry],
    }),
    decodeWorkerDeaths: new Counter({
      name: 'ferry_decode_worker_deaths_total',
      help: 'Decode workers that died running a task (out of memory, crash); each was replaced and its request answered 503.',
      registers: [registry],
    }),
    pointsDropped: new Counter({
      name: 'ferry_write_points_dropped_total',
      help: 'Points of accepted writes that were not kept, by category and reason (no_field: no field left after the corrections).',
      labelNames: ['category', 'reason'] as const,
      registers: [registry],
    }),
    warnings: new Counter({
      name: 'ferry_write_point_warnings_total',
      help: 'Corrections applied to accepted points, by category and warning type.',
      labelNames: ['category', 'type'] as const,
      registers: [registry],
    }),
  }
  return m
}

export type Metrics = ReturnType<typeof createMetrics>
