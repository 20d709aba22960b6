/** `GET /metrics` (spec 4.14): the agent's Prometheus registry in text format. */
import type { Hono } from 'hono'
import type { Registry } from 'prom-client'
import type { HttpEnv } from '../deps.js'

export function metricsRoutes(app: Hono<HttpEnv>, registry: Registry): void {
  app.get('/metrics', async (c) => {
    c.header('Content-Type', registry.contentType)
    return c.body(await registry.metrics())
  })
}
