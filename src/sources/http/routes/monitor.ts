/**
 * `GET /v1/monitor` (the figures as JSON, for `ferry monitor`) and `GET /monitor` (a status
 * page over the same). Management routes: loopback only unless listed in public_apis.
 */
import type { Hono } from 'hono'
import { MONITOR_PAGE } from '../../../monitor/page.js'
import type { HttpDeps, HttpEnv } from '../deps.js'

export function monitorRoutes(app: Hono<HttpEnv>, deps: HttpDeps): void {
  const monitor = deps.monitor
  if (!monitor) return
  app.get('/v1/monitor', (c) => c.json(monitor.snapshot()))
  app.get('/monitor', (c) => c.html(MONITOR_PAGE))
}
