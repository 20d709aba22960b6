/**
 * The agent's lifecycle log lines (started, reloaded): one place for their events and wording,
 * which operators and the tests search for.
 */
import type { HttpServer } from '../http/server.js'
import type { Identity } from '../identity.js'
import type { ReloadPlan } from '../reload.js'
import type { Logger } from '../telemetry/logger.js'

export interface StartedFacts {
  http: HttpServer
  mode: string
  identity: Identity
  workers: number
  upstreams: string[]
}

export function logStarted(log: Logger, f: StartedFacts): void {
  const addr = f.http.address()
  const upstreams = f.upstreams
  if (!upstreams.length)
    log.warn(
      { event: 'no_upstream' },
      'no [dataway] urls and no embedded workspace: accepted points stay in the disk buffer',
    )
  log.info(
    {
      event: 'agent_started',
      listen: `${addr.address}:${addr.port}`,
      tls: f.http.secure,
      mode: f.mode,
      version: f.identity.version,
      workers: f.workers,
      upstreams,
    },
    'ferry agent started',
  )
}

export function logReloaded(log: Logger, plan: ReloadPlan): void {
  log.info({ event: 'config_reloaded', ...plan }, 'configuration reloaded')
  if (plan.restart.length)
    log.warn(
      { event: 'config_needs_restart', keys: plan.restart },
      `changed keys that take effect after a restart: ${plan.restart.join(', ')}`,
    )
}
