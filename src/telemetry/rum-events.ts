/**
 * RUM telemetry, by the reference's metric names under Ferry's prefix: source map outcomes
 * (`app_id` and `sdk_name` come from clients, so they pass a bounded label), resolution time,
 * zips stored, and session replay uploads.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client'
import type { SourceMapStat } from '../ingest/rum.js'
import type { CdnStat } from '../rum/cdn/marker.js'
import type { Logger } from './logger.js'
import { BoundedLabel } from './recent-errors.js'

export function createRumMetrics(registry: Registry) {
  const registers = [registry]
  return {
    sourceMaps: new Counter({
      name: 'ferry_rum_source_map_total',
      help: 'RUM error points given to the source map resolver, by app, SDK and outcome.',
      labelNames: ['app_id', 'sdk_name', 'status'] as const,
      registers,
    }),
    sourceMapSeconds: new Histogram({
      name: 'ferry_rum_source_map_duration_seconds',
      help: 'Time to resolve one RUM error stack.',
      labelNames: ['sdk_name'] as const,
      buckets: [0.00005, 0.0002, 0.001, 0.005, 0.02, 0.1, 0.5],
      registers,
    }),
    loadedZips: new Gauge({
      name: 'ferry_rum_loaded_zips',
      help: 'Source map zips stored, by platform.',
      labelNames: ['platform'] as const,
      registers,
    }),
    zipsRefused: new Counter({
      name: 'ferry_rum_zip_refused_total',
      help: 'Source map and symbol zips refused for inflating past their budget (bytes or entries); each is remembered until replaced.',
      registers,
    }),
    cdn: new Counter({
      name: 'ferry_rum_cdn_marks_total',
      help: 'RUM resource hosts CDN-marked, by how (cached; looked up in time; late: marked unknown while the lookup went on).',
      labelNames: ['result'] as const,
      registers,
    }),
    replays: new Counter({
      name: 'ferry_rum_replay_total',
      help: 'Session replay uploads, by outcome (queued, filtered, sent, failed, rejected).',
      labelNames: ['status'] as const,
      registers,
    }),
  }
}

export class RumEvents {
  private readonly m: ReturnType<typeof createRumMetrics>
  private readonly apps = new BoundedLabel()
  private readonly sdks = new BoundedLabel()

  constructor(
    private readonly log: Logger,
    registry: Registry,
  ) {
    this.m = createRumMetrics(registry)
  }

  sourceMaps(stats: SourceMapStat[] | undefined): void {
    for (const s of stats ?? []) {
      const sdk = this.sdks.value(s.sdkName)
      this.m.sourceMaps.inc({ app_id: this.apps.value(s.appId), sdk_name: sdk, status: s.status })
      this.m.sourceMapSeconds.observe({ sdk_name: sdk }, s.seconds)
      if (s.refused) this.zipRefused(s.refused)
    }
  }

  /** A zip over its inflation budget: `zip` is `<platform>/<name>`, never a full path. */
  zipRefused(r: { zip: string; reason: string }): void {
    this.m.zipsRefused.inc()
    this.log.warn({ event: 'zip_refused', zip: r.zip, reason: r.reason }, 'zip refused')
  }

  cdn(stat: CdnStat | undefined): void {
    if (!stat) return
    for (const result of ['cached', 'looked', 'late'] as const)
      if (stat[result]) this.m.cdn.inc({ result }, stat[result])
  }

  sourceMapStored(
    platform: string,
    action: 'uploaded' | 'deleted',
    file: string,
    zips: number,
  ): void {
    this.m.loadedZips.set({ platform }, zips)
    this.log.info({ event: `sourcemap_${action}`, platform, file }, `source map ${action}`)
  }

  replay(status: 'queued' | 'filtered' | 'sent' | 'failed' | 'rejected', detail = ''): void {
    this.m.replays.inc({ status })
    if (status === 'failed' || status === 'rejected')
      this.log.warn({ event: `replay_${status}` }, detail)
  }
}
