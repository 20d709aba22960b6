/**
 * Named events of `[io]` (filters, time correction) and `[dataway.ntp]`: each logs and counts
 * in one call. Filtered points are drops (`ferry_dropped_points_total{reason="filtered"}`, the
 * counter the buffer and uploader count theirs in), logged at debug: a filter drops by design.
 */
import { Counter, Gauge, type Registry } from 'prom-client'
import type { IoEvents } from '../ingest/io.js'
import type { NtpEvents } from '../sinks/dataway/ntp.js'
import type { Category } from '../shared/category.js'
import type { Logger } from './logger.js'
import type { SinkMetrics } from './sink-metrics.js'

function createUplinkMetrics(registry: Registry) {
  const registers = [registry]
  return {
    retimed: new Counter({
      name: 'ferry_points_retimed_total',
      help: 'Points more than 2h from now re-timed by [io] auto_timestamp_correction, by category.',
      labelNames: ['category'] as const,
      registers,
    }),
    ntpOffset: new Gauge({
      name: 'ferry_dataway_ntp_offset_seconds',
      help: 'Offset applied to the local clock from the upstream /v1/ntp (0 while under [dataway.ntp] diff).',
      registers,
    }),
    ntpSyncs: new Counter({
      name: 'ferry_dataway_ntp_syncs_total',
      help: 'Clock syncs against the upstream /v1/ntp, by outcome (ok, failed).',
      labelNames: ['outcome'] as const,
      registers,
    }),
  }
}

export class UplinkEvents implements IoEvents, NtpEvents {
  private readonly m: ReturnType<typeof createUplinkMetrics>
  private lastApplied: number | null = null

  constructor(
    private readonly log: Logger,
    registry: Registry,
    private readonly dropped: SinkMetrics['dropped'],
  ) {
    this.m = createUplinkMetrics(registry)
  }

  pointsFiltered(category: Category, points: number): void {
    this.dropped.inc({ category, reason: 'filtered' }, points)
    this.log.debug({ event: 'points_filtered', category, points }, 'points dropped by [io.filters]')
  }

  pointsRetimed(category: Category, points: number): void {
    this.m.retimed.inc({ category }, points)
    this.log.debug({ event: 'points_retimed', category, points }, 'points re-timed to now')
  }

  ntpSynced(upstream: string, measuredSeconds: number, appliedSeconds: number): void {
    this.m.ntpSyncs.inc({ outcome: 'ok' })
    this.m.ntpOffset.set(appliedSeconds)
    // Logged when what is applied changes (and at the first sync), not every interval.
    if (this.lastApplied === appliedSeconds) return
    this.lastApplied = appliedSeconds
    this.log.info(
      { event: 'ntp_offset', upstream, measuredSeconds, appliedSeconds },
      `clock offset from ${upstream}: ${measuredSeconds}s measured, ${appliedSeconds}s applied`,
    )
  }

  ntpFailed(upstream: string, why: string): void {
    this.m.ntpSyncs.inc({ outcome: 'failed' })
    this.log.warn({ event: 'ntp_failed', upstream }, `clock sync with ${upstream} failed: ${why}`)
  }
}
