/**
 * Named telemetry events of the workspace service: one call logs and counts. Metrics are
 * prefixed `ferry_workspace_` and served on the service's own `/metrics`.
 */
import { Counter, Histogram, Registry } from 'prom-client'
import type { FerryError } from '../errors.js'
import type { Logger } from '../telemetry/logger.js'
import { damagedText } from './store/damage.js'
import type { SweepResult } from './store/retention.js'

export function createWorkspaceMetrics(registry: Registry) {
  const r = [registry]
  return {
    registry,
    requests: new Counter({
      name: 'ferry_workspace_http_requests_total',
      help: 'Requests answered by the workspace service, by route, method and status.',
      labelNames: ['route', 'method', 'status'] as const,
      registers: r,
    }),
    stored: new Counter({
      name: 'ferry_workspace_points_stored_total',
      help: 'Points committed to the database, by category.',
      labelNames: ['category'] as const,
      registers: r,
    }),
    duplicates: new Counter({
      name: 'ferry_workspace_duplicate_packages_total',
      help: 'Bodies acknowledged without storing because their X-Pkg-Id was already stored.',
      labelNames: ['workspace', 'category'] as const,
      registers: r,
    }),
    replays: new Counter({
      name: 'ferry_workspace_replay_segments_total',
      help: 'Session replay segments stored, by workspace.',
      labelNames: ['workspace'] as const,
      registers: r,
    }),
    rejected: new Counter({
      name: 'ferry_workspace_rejected_requests_total',
      help: 'Requests refused (nothing of them stored), by error code.',
      labelNames: ['code'] as const,
      registers: r,
    }),
    commitSeconds: new Histogram({
      name: 'ferry_workspace_write_seconds',
      help: 'Time from receiving a write to its commit.',
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: r,
    }),
    retentionDeleted: new Counter({
      name: 'ferry_workspace_retention_deleted_rows_total',
      help: 'Rows deleted by retention because they were older than their category keeps.',
      labelNames: ['workspace', 'category'] as const,
      registers: r,
    }),
    retentionFailures: new Counter({
      name: 'ferry_workspace_retention_failures_total',
      help: 'Retention sweeps that failed (retried at the next interval).',
      registers: r,
    }),
    damageErrors: new Counter({
      name: 'ferry_workspace_damage_errors_total',
      help: 'Queries and writes that failed because the database file is damaged.',
      registers: r,
    }),
    undocumentedFields: new Counter({
      name: 'ferry_workspace_undocumented_fields_total',
      help: 'Open API body fields the operation does not document (ignored), by operation.',
      labelNames: ['operation'] as const,
      registers: r,
    }),
    querySeconds: new Histogram({
      name: 'ferry_workspace_query_seconds',
      help: 'Time to answer one DQL query.',
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: r,
    }),
  }
}

/** A damage message already logged is logged again after this long, with the count between. */
export const DAMAGE_LOG_EVERY_MS = 60_000

/** Distinct damage messages remembered for that (each names a block: a bounded few in practice). */
const DAMAGE_MESSAGES_KEPT = 64

export class WorkspaceEvents {
  readonly metrics: ReturnType<typeof createWorkspaceMetrics>
  /** Damage message -> when it was last logged and how often it failed a call since. */
  private readonly damageLog = new Map<string, { at: number; since: number }>()

  constructor(
    readonly log: Logger,
    registry: Registry = new Registry(),
  ) {
    this.metrics = createWorkspaceMetrics(registry)
  }

  stored(workspace: string, category: string, points: number, seconds: number): void {
    this.metrics.stored.inc({ category }, points)
    this.metrics.commitSeconds.observe(seconds)
    this.log.debug({ event: 'points_stored', workspace, category, points }, 'points stored')
  }

  duplicate(workspace: string, category: string, pkgId: string): void {
    this.metrics.duplicates.inc({ workspace, category })
    this.log.info(
      { event: 'duplicate_package', workspace, category, pkgId },
      'package already stored',
    )
  }

  rejected(route: string, err: FerryError): void {
    this.metrics.rejected.inc({ code: err.code })
    // Logged by `damaged`, once per message a minute: not once per failing request.
    if (err.code === 'workspaceDamaged') return
    const level = err.status >= 500 ? 'error' : 'warn'
    this.log[level]({ event: 'request_rejected', route, code: err.code }, err.message)
  }

  /** Fields a client sent that the operation does not document: a typo shows here. */
  undocumentedFields(operation: string, fields: string[]): void {
    if (!fields.length) return
    this.metrics.undocumentedFields.inc({ operation }, fields.length)
    // Only the first few names: a body is bounded, but one with thousands of keys is no reason
    // for a line of thousands of names.
    const shown = fields.slice(0, 10).map((f) => f.slice(0, 64))
    this.log.warn(
      { event: 'undocumented_fields', operation, fields: shown, count: fields.length },
      `${operation}: ignored undocumented field(s) ${shown.join(', ')}`,
    )
  }

  replayStored(workspace: string, bytes: number): void {
    this.metrics.replays.inc({ workspace })
    this.log.debug({ event: 'replay_stored', workspace, bytes }, 'session replay segment stored')
  }

  retentionSwept(results: SweepResult[], seconds: number): void {
    for (const r of results) {
      this.metrics.retentionDeleted.inc({ workspace: r.workspace, category: r.category }, r.rows)
      this.log.info(
        { event: 'retention_deleted', workspace: r.workspace, category: r.category, rows: r.rows },
        `retention deleted ${r.rows} ${r.category} rows`,
      )
    }
    this.log.debug({ event: 'retention_swept', seconds }, 'retention sweep done')
  }

  retentionFailed(err: unknown): void {
    this.metrics.retentionFailures.inc()
    this.log.error({ event: 'retention_failed', err }, 'retention sweep failed')
  }

  /**
   * A query or write failed on a damaged database file: counted every time; logged the first
   * time a message is met and then at most once per DAMAGE_LOG_EVERY_MS, so a flood of
   * failing calls does not flood the log.
   */
  damaged(message: string, now = Date.now()): void {
    this.metrics.damageErrors.inc()
    const seen = this.damageLog.get(message)
    if (seen && now - seen.at < DAMAGE_LOG_EVERY_MS) return void seen.since++
    const repeated = seen ? seen.since : 0
    this.damageLog.delete(message)
    this.damageLog.set(message, { at: now, since: 0 })
    if (this.damageLog.size > DAMAGE_MESSAGES_KEPT)
      this.damageLog.delete(this.damageLog.keys().next().value!)
    this.log.error({ event: 'workspace_damaged', reason: message, repeated }, damagedText(message))
  }

  queried(seconds: number): void {
    this.metrics.querySeconds.observe(seconds)
  }

  answered(route: string, method: string, status: number): void {
    this.metrics.requests.inc({ route, method, status: String(status) })
  }

  internalError(where: string, err: unknown): void {
    this.log.error({ event: 'internal_error', where, err }, 'unexpected error')
  }
}
