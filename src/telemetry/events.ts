/**
 * Named telemetry events: one call writes the log line and moves the metric together, so no
 * drop or rejection can be logged without being counted, or counted without being logged.
 */
import type { FerryError } from '../errors.js'
import { NO_FIELD } from '../decode/check/empty.js'
import type { Logger } from './logger.js'
import type { Metrics } from './metrics.js'
import { BoundedLabel, RecentErrors } from './recent-errors.js'

export interface WriteAccepted {
  category: string
  input: string
  points: number
  warnings: Record<string, number>
  dry: boolean
}

export class Events {
  readonly recent = new RecentErrors()
  private readonly inputs = new BoundedLabel()

  constructor(
    readonly log: Logger,
    readonly metrics: Metrics,
  ) {}

  writeAccepted(e: WriteAccepted): void {
    const category = e.category
    this.metrics.pointsReceivedTally.add(category, () => ({ category }), e.points)
    for (const [type, n] of Object.entries(e.warnings))
      this.metrics.warnings.inc({ category: e.category, type }, n)
    const empty = e.warnings[NO_FIELD]
    if (empty) this.metrics.pointsDropped.inc({ category: e.category, reason: NO_FIELD }, empty)
    // Once per write: the line's object is only built when debug lines are written.
    if (this.log.isLevelEnabled('debug'))
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
    this.metrics.httpRequestsTally.add(`${route} ${method} ${status}`, () => ({
      route,
      method,
      status: String(status),
    }))
    this.metrics.httpDuration.observe({ route, method }, seconds)
  }

  bodyReceived(category: string, bytes: number): void {
    this.metrics.httpBodyBytes.observe({ category }, bytes)
  }

  internalError(where: string, err: unknown): void {
    this.metrics.internalErrors.inc({ where })
    this.recent.add('internal', where, err instanceof Error ? err.message : String(err))
    this.log.error({ event: 'internal_error', where, err }, 'unexpected error')
  }

  /** A decode worker died under a task; Piscina replaces it, the request gets 503. */
  decodeWorkerDied(err: Error): void {
    this.metrics.decodeWorkerDeaths.inc()
    this.recent.add('internal', 'decode worker', err.message)
    this.log.error({ event: 'decode_worker_died', err }, 'a decode worker died and was replaced')
  }

  /** A decode worker's heap grew past `[decode] recycle_heap`: it is replaced once idle. */
  decodeWorkerRecycled(heapBytes: number): void {
    this.metrics.decodeWorkerRecycles.inc()
    this.log.info(
      { event: 'decode_worker_recycled', heapBytes },
      'a decode worker whose heap grew past [decode] recycle_heap is being replaced',
    )
  }

  /** A client past `[decode] client_share` while others decode: its write gets 429. */
  decodeShareExceeded(client: string, retryAfter: number): void {
    this.metrics.decodeShareRefusals.inc()
    this.log.warn(
      { event: 'decode_share_exceeded', client, retryAfter },
      'a client used more than its share of decoding; its write is answered 429',
    )
  }

  tagsChanged(table: string, method: string, persisted: boolean): void {
    this.metrics.tagChanges.inc({ table, method })
    this.metrics.tagsChangedAt.set({ table }, Date.now() / 1000)
    this.log.info({ event: 'global_tags_changed', table, method, persisted }, 'global tags changed')
  }

  /** An external collector's error report (`/v1/lasterror`). */
  lastError(input: string, source: string, message: string): void {
    const label = this.inputs.value(input)
    this.metrics.lastErrors.inc({ input: label })
    this.metrics.lastErrorAt.set({ input: label }, Date.now() / 1000)
    this.recent.add('lasterror', source ? `${input}/${source}` : input, message)
    this.log.warn({ event: 'last_error', input, source }, message)
  }
}
