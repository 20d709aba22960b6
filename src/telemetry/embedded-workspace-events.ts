/**
 * The agent's view of its embedded workspace: whether it runs (`ferry_embedded_workspace_up`),
 * a failure to start logged once with its reason, each later start attempt that fails (logged
 * and counted in `ferry_embedded_workspace_retries_total`), and the attempt that succeeds. The
 * agent runs on without it. A running workspace that meets a damaged database file sets
 * `ferry_embedded_workspace_damaged` (read by the health judge) until a fresh start; the
 * workspace logs the damage itself (`workspace_damaged`, same process), so it is not logged twice.
 */
import { Counter, Gauge, type Registry } from 'prom-client'
import type { FerryError } from '../errors.js'
import type { Logger } from './logger.js'

export class EmbeddedWorkspaceEvents {
  private readonly up: Gauge
  private readonly retries: Counter
  private readonly damage: Gauge

  constructor(
    private readonly log: Logger,
    registry: Registry,
  ) {
    this.up = new Gauge({
      name: 'ferry_embedded_workspace_up',
      help: 'Whether the embedded workspace service runs (1) or failed to start (0).',
      registers: [registry],
    })
    this.retries = new Counter({
      name: 'ferry_embedded_workspace_retries_total',
      help: 'Start attempts of the embedded workspace after a failed one that failed again.',
      registers: [registry],
    })
    this.damage = new Gauge({
      name: 'ferry_embedded_workspace_damaged',
      help: 'Whether the running embedded workspace met a damaged database file (1) or not (0).',
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

  retryFailed(err: FerryError, nextMs: number): void {
    this.retries.inc()
    this.log.warn(
      { event: 'workspace_retry_failed', code: err.code, reason: err.message, next_ms: nextMs },
      `the embedded workspace still fails to start: ${err.message}; next attempt in ${nextMs} ms`,
    )
  }

  /** The running workspace met damage: the health judge reports it until a fresh start. */
  damaged(): void {
    this.damage.set(1)
  }

  recovered(): void {
    this.up.set(1)
    this.damage.set(0)
    this.log.info(
      { event: 'workspace_recovered' },
      'the embedded workspace started after a retry; buffered points are uploaded to it',
    )
  }
}
