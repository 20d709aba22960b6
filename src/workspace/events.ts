/**
 * Named telemetry events of the workspace service: one call logs and counts. Metrics are
 * prefixed `ferry_workspace_` and served on the service's own `/metrics`.
 */
import { Registry } from 'prom-client'
import { createWorkspaceMetrics } from './metrics.js'
import type { FerryError } from '../errors.js'
import type { Logger } from '../telemetry/logger.js'
import { LogEvery } from './log-every.js'
import { damagedText } from './store/damage.js'
import type { ResidualReason } from './store/clickhouse/residual.js'
import type { SweepResult } from './store/retention.js'
import type { WriteRequest } from './store/write-request.js'

/** A damage message already logged is logged again after this long, with the count between. */
export const DAMAGE_LOG_EVERY_MS = 60_000

/** Distinct damage messages remembered for that (each names a block: a bounded few in practice). */
const DAMAGE_MESSAGES_KEPT = 64

/** A workspace's reused package ids are logged once per this long, with the count between. */
export const REUSED_ID_LOG_EVERY_MS = 60_000

export class WorkspaceEvents {
  readonly metrics: ReturnType<typeof createWorkspaceMetrics>
  private readonly damageLog = new LogEvery(DAMAGE_LOG_EVERY_MS, DAMAGE_MESSAGES_KEPT)
  private readonly reusedLog = new LogEvery(REUSED_ID_LOG_EVERY_MS, 1024)

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

  duplicate(workspace: string, category: string, pkgId: string, by: 'id' | 'content'): void {
    if (by === 'id') {
      this.metrics.duplicates.inc({ workspace, category })
      this.log.info(
        { event: 'duplicate_package', workspace, category, pkgId },
        'package already stored',
      )
      return
    }
    this.metrics.duplicateContent.inc({ workspace, category })
    this.log.info(
      { event: 'duplicate_content', workspace, category, pkgId },
      'a body with the same content was already stored under another package id',
    )
  }

  /**
   * A body was stored under a package id stored before with other content: counted every
   * time, logged once per REUSED_ID_LOG_EVERY_MS per workspace.
   */
  reusedId(workspace: string, category: string, pkgId: string, now = Date.now()): void {
    this.metrics.reusedIds.inc({ workspace })
    const repeated = this.reusedLog.admit(workspace, now)
    if (repeated === null) return
    this.log.warn(
      { event: 'package_id_reused', workspace, category, pkgId, repeated },
      'a package id stored before came with other content; stored it as a new body',
    )
  }

  rejected(route: string, err: FerryError): void {
    this.metrics.rejected.inc({ code: err.code })
    // Logged by `damaged`, once per message a minute: not once per failing request.
    if (err.code === 'workspaceDamaged') return
    const level = err.status >= 500 ? 'error' : 'warn'
    this.log[level]({ event: 'request_rejected', route, code: err.code }, err.message)
  }

  usageTrace(workspace: string, report: Record<string, unknown>): void {
    const { hostname, datakit_version, runtime_id } = report ?? {}
    this.log.debug(
      { event: 'usage_trace', workspace, hostname, datakit_version, runtime_id },
      'usage trace received',
    )
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
    const repeated = this.damageLog.admit(message, now)
    if (repeated === null) return
    this.log.error({ event: 'workspace_damaged', reason: message, repeated }, damagedText(message))
  }

  /** ClickHouse stopped answering (`reason`) or answers again (null): logged once per change. */
  storageHealth(reason: string | null): void {
    this.metrics.storageDown.set(reason === null ? 0 : 1)
    if (reason === null)
      this.log.info({ event: 'storage_available' }, 'the storage service answers again')
    else
      this.log.error(
        { event: 'storage_unavailable', reason },
        `the storage service answers nothing; writes get 503 until it does: ${reason}`,
      )
  }

  /** A body a re-send may store twice (store/clickhouse/residual.ts): counted and logged. */
  dedupeResidual(reason: ResidualReason, req: WriteRequest, why: string): void {
    this.metrics.dedupeResidual.inc({ reason })
    const { workspaceId: workspace, category, pkgId, points } = req
    this.log.warn(
      { event: 'dedupe_residual', reason, workspace, category, pkgId, points, why },
      reason === 'partial'
        ? 'a body was stored in part; its retry stores those rows again'
        : 'a body was stored without its package record; a re-send of it is stored again',
    )
  }

  /**
   * An ON CLUSTER statement (a table or column another instance may be waiting for) that not
   * every node ran within `ddl_wait`: taken as done, counted and logged.
   */
  ddlUnfinished(statement: string, waitedMs: number): void {
    this.metrics.ddlUnfinished.inc()
    this.log.warn(
      { event: 'clickhouse_ddl_unfinished', statement, waitedMs },
      `not every ClickHouse node ran a statement within the DDL wait; taken as done: ${statement}`,
    )
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
