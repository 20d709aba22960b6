/**
 * The agent's view of its embedded workspace: whether it runs (`ferry_embedded_workspace_up`),
 * and a failure to start logged once with its reason. The agent runs on without it.
 */
import { Gauge, type Registry } from 'prom-client'
import type { FerryError } from '../errors.js'
import type { Logger } from './logger.js'

export class EmbeddedWorkspaceEvents {
  private readonly up: Gauge

  constructor(
    private readonly log: Logger,
    registry: Registry,
  ) {
    this.up = new Gauge({
      name: 'ferry_embedded_workspace_up',
      help: 'Whether the embedded workspace service runs (1) or failed to start (0).',
      registers: [registry],
    })
  }

  started(): void {
    this.up.set(1)
  }

  failed(err: FerryError): void {
    this.up.set(0)
    this.log.error(
      { event: 'workspace_failed', code: err.code, reason: err.message },
      `the embedded workspace failed to start: ${err.message}; accepted points stay in the disk buffer`,
    )
  }
}
