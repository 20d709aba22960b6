/**
 * Named events of the buffer and the uploader: each logs and counts in one call. Retried data
 * is never counted as dropped; every drop names its reason.
 */
import type { ProbeResult } from '../buffer/disk/probe.js'
import type { BufferEvents } from '../buffer/disk/types.js'
import type { UploadBody } from '../sinks/dataway/bodies.js'
import type { UploadError } from '../sinks/dataway/send.js'
import type { UploadEvents } from '../sinks/dataway/upload-types.js'
import type { Logger } from './logger.js'
import type { RecentErrors } from './recent-errors.js'
import type { SinkMetrics } from './sink-metrics.js'

export class SinkEvents implements BufferEvents, UploadEvents {
  private readonly failing = new Set<string>()

  constructor(
    private readonly log: Logger,
    private readonly m: SinkMetrics,
    /** Where failures are listed for the monitor (optional: tools have no monitor). */
    private readonly recent?: RecentErrors,
  ) {}

  committed(seconds: number): void {
    this.m.commitSeconds.observe(seconds)
  }

  pointsDropped(category: string, reason: string, points: number): void {
    this.m.dropped.inc({ category, reason }, points)
    this.recent?.add('drop', category, `dropped ${points} points: ${reason}`)
    this.log.warn(
      { event: 'points_dropped', category, reason, points },
      `dropped ${points} ${category} points: ${reason}`,
    )
  }

  recordDamaged(category: string, seq: number, why: string): void {
    this.m.damaged.inc({ category })
    this.log.error(
      { event: 'buffer_record_damaged', category, seq, why },
      'damaged buffer record skipped',
    )
  }

  storageFailed(op: string, why: string): void {
    this.m.storageErrors.inc({ op })
    this.recent?.add('buffer', op, why)
    this.log.error({ event: 'buffer_storage_failed', op }, why)
  }

  remapped(readBytes: number, seconds: number): void {
    this.m.remaps.inc()
    this.log.debug(
      { event: 'buffer_remapped', readBytes, seconds },
      'disk buffer reopened to give back the pages its reads made resident',
    )
  }

  recordsLost(category: string, records: number, points: number, why: string): void {
    this.m.damaged.inc({ category }, records)
    this.m.dropped.inc({ category, reason: 'damaged' }, points)
    this.recent?.add('drop', category, `lost ${records} damaged records: ${why}`)
    this.log.error(
      { event: 'buffer_records_lost', category, records, points, why },
      `lost ${records} ${category} records (${points} points) to buffer damage: ${why}`,
    )
  }

  /**
   * Damage the start-up probe found and salvaged: one line with the counts per category, the
   * damaged records counted, and the points of records not recovered counted as dropped.
   */
  bufferDamaged(found: ProbeResult): void {
    const { damaged, report } = found
    for (const [category, n] of Object.entries(damaged)) this.m.damaged.inc({ category }, n)
    for (const [category, n] of Object.entries(report?.lost ?? {}))
      this.m.dropped.inc({ category, reason: 'damaged' }, n.points)
    const total = Object.values(damaged).reduce((a, b) => a + b, 0)
    this.recent?.add('buffer', 'start', `${total} damaged records: ${found.note}`)
    this.log.error(
      {
        event: 'buffer_damaged',
        aside: found.aside,
        damaged,
        recovered: report?.recovered ?? {},
        lost: report?.lost ?? {},
      },
      found.note,
    )
  }

  loopFailed(upstream: string, category: string, err: unknown): void {
    const why = err instanceof Error ? err.message : String(err)
    this.recent?.add('upload', upstream, `${category} upload loop paused: ${why}`)
    this.log.error({ event: 'upload_loop_failed', upstream, category }, why)
  }

  uploadAttempt(upstream: string, body: UploadBody, outcome: string, seconds: number): void {
    this.m.uploads.inc({ upstream, outcome })
    this.m.uploadSeconds.observe({ upstream }, seconds)
    this.track(upstream, outcome === 'ok')
    if (outcome !== 'ok') return
    this.m.uploadedPoints.inc({ upstream, category: body.category }, body.points)
    this.m.uploadedBytes.inc({ upstream, category: body.category }, body.payload.length)
  }

  /** Health: when each upstream last succeeded, and since when it fails (0: it does not). */
  private track(upstream: string, ok: boolean): void {
    const now = Date.now() / 1000
    if (ok) {
      this.m.lastSuccess.set({ upstream }, now)
      this.m.failingSince.set({ upstream }, 0)
      this.failing.delete(upstream)
    } else if (!this.failing.has(upstream)) {
      this.failing.add(upstream)
      this.m.failingSince.set({ upstream }, now)
    }
  }

  uploadRetry(upstream: string, body: UploadBody, err: UploadError, waitMs: number): void {
    this.m.retries.inc({ upstream })
    this.recent?.add('upload', upstream, err.message)
    this.log.warn(
      { event: 'upload_retry', upstream, category: body.category, pkg: body.pkgId, waitMs },
      err.message,
    )
  }

  deadLettered(upstream: string, body: UploadBody, err: UploadError): void {
    this.m.deadLetters.inc({ upstream, category: body.category })
    this.m.dropped.inc({ category: body.category, reason: 'dead_letter' }, body.points)
    this.recent?.add('upload', upstream, `${err.message}; body moved to dead letters`)
    this.log.error(
      {
        event: 'dead_letter',
        upstream,
        category: body.category,
        pkg: body.pkgId,
        status: err.httpStatus,
        response: err.responseText,
      },
      `${err.message}; body moved to dead letters`,
    )
  }
}
