/**
 * The one prom-client registry of the agent. Only `events.ts` increments these; everything
 * else asks an event to happen. Label values are bounded (categories, error codes, routes).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

export function createMetrics() {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'ferry_' })
  const m = {
    registry,
    httpRequests: new Counter({
      name: 'ferry_http_requests_total',
      help: 'HTTP requests answered, by route, method and status code.',
      labelNames: ['route', 'method', 'status'] as const,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'ferry_http_request_duration_seconds',
      help: 'Time to answer an HTTP request.',
      labelNames: ['route', 'method'] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    httpBodyBytes: new Counter({
      name: 'ferry_http_request_body_bytes_total',
      help: 'Request body bytes received on write routes (as sent, before decompression).',
      labelNames: ['category'] as const,
      registers: [registry],
    }),
    pointsReceived: new Counter({
      name: 'ferry_write_points_total',
      help: 'Points accepted by the write API, by category.',
      labelNames: ['category'] as const,
      registers: [registry],
    }),
    writesRejected: new Counter({
      name: 'ferry_write_rejected_requests_total',
      help: 'Write requests refused, by category and error code (nothing of them was kept).',
      labelNames: ['category', 'code'] as const,
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

/** A gauge read at scrape time from a live source (queue lengths, buffer depth). */
export function addProbe(m: Metrics, name: string, help: string, read: () => number): void {
  new Gauge({
    name,
    help,
    registers: [m.registry],
    collect() {
      this.set(read())
    },
  })
}
