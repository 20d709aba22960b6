/**
 * `GET /v1/ping` (spec 4.10, wrapped in content) and `GET /v1/ntp` (spec 4.4, not wrapped).
 * Ping also carries the health state (`ok`, or `degraded` with reasons) and stays 200 either
 * way: clients of the reference read a 200 as "the agent is up", which it is.
 */
import type { Hono } from 'hono'
import { formatMillis } from '../../../shared/duration.js'
import type { HttpDeps, HttpEnv } from '../deps.js'

export function infoRoutes(app: Hono<HttpEnv>, deps: HttpDeps): void {
  const id = deps.identity
  app.get('/v1/ping', (c) =>
    c.json({
      content: {
        version: id.version,
        uptime: formatMillis(Date.now() - id.startedAt),
        host: id.host,
        commit: id.commit,
        buffer_id: deps.buffer.id,
        ...(deps.workspaceState ? { workspace: deps.workspaceState() } : {}),
        ...(deps.monitor ? { health: deps.monitor.health() } : {}),
      },
    }),
  )
  app.get('/v1/ntp', (c) => c.json({ timestamp_sec: Math.floor(Date.now() / 1000) }))
}
