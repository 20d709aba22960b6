/**
 * Named telemetry events: one call writes the log line and moves the metric together, so no
 * drop or rejection can be logged without being counted, or counted without being logged.
 */
import type { FerryError } from '../errors.js'
import type { Logger } from './logger.js'
import type { Metrics } from './metrics.js'

export interface WriteAccepted {
  category: string
  input: string
  points: number
  warnings: Record<string, number>
  dry: boolean
}

export class Events {
  constructor(
    readonly log: Logger,
    readonly metrics: Metrics,
  ) {}

  writeAccepted(e: WriteAccepted): void {
    this.metrics.pointsReceived.inc({ category: e.category }, e.points)
    for (const [type, n] of Object.entries(e.warnings))
      this.metrics.warnings.inc({ category: e.category, type }, n)
    this.log.debug({ event: 'write_accepted', ...e }, 'write accepted')
  }

  writeRejected(category: string, input: string, err: FerryError): void {
    this.metrics.writesRejected.inc({ category, code: err.code })
    // Line protocol errors carry the whole diagnosis (spec 7: also recorded in the agent log).
    this.log.warn(
      { event: 'write_rejected', category, input, code: `agent.${err.code}` },
      err.message,
    )
  }

  httpAnswered(route: string, method: string, status: number, seconds: number): void {
    this.metrics.httpRequests.inc({ route, method, status: String(status) })
    this.metrics.httpDuration.observe({ route, method }, seconds)
  }

  bodyReceived(category: string, bytes: number): void {
    this.metrics.httpBodyBytes.inc({ category }, bytes)
  }

  internalError(where: string, err: unknown): void {
    this.log.error({ event: 'internal_error', where, err }, 'unexpected error')
  }
}
