/**
 * The agent's first two groups of parts, built before anything that sends or serves: its
 * telemetry (metrics and the named events every part reports through) and the write core
 * (reused body buffers, the disk buffer, the pipeline's watcher and refer table, the decode
 * pool). Nothing here starts a thread, opens a file or listens: that waits for `start`.
 */
import type { LoadedConfig } from '../config/load.js'
import type { DiskBuffer } from '../buffer/disk/disk-buffer.js'
import { DecodeShares } from '../ingest/decode-shares.js'
import type { DecodePool } from '../ingest/pool.js'
import { PipelineWatcher } from '../pipeline/watcher.js'
import { pipelineSettings } from '../pipeline/settings.js'
import { ReferPuller } from '../pipeline/refer/puller.js'
import { BufferPool } from '../shared/buffer-pool.js'
import { Events } from '../telemetry/events.js'
import type { Logger } from '../telemetry/logger.js'
import { createMetrics, type Metrics } from '../telemetry/metrics.js'
import { PipelineEvents } from '../telemetry/pipeline-events.js'
import { SinkEvents } from '../telemetry/sink-events.js'
import { createSinkMetrics } from '../telemetry/sink-metrics.js'
import { UplinkEvents } from '../telemetry/uplink-events.js'
import { createBuffer } from './build.js'
import { createDecodePool } from './pool.js'

export interface Telemetry {
  readonly log: Logger
  readonly metrics: Metrics
  readonly events: Events
  readonly sinkEvents: SinkEvents
  readonly uplink: UplinkEvents
}

export function buildTelemetry(log: Logger): Telemetry {
  const metrics = createMetrics()
  const events = new Events(log, metrics)
  const sinkMetrics = createSinkMetrics(metrics.registry)
  return {
    log,
    metrics,
    events,
    sinkEvents: new SinkEvents(log, sinkMetrics, events.recent),
    uplink: new UplinkEvents(log, metrics.registry, sinkMetrics.dropped),
  }
}

export interface Core {
  /**
   * Reused buffers (`[http_api] body_pool_bytes`) for write bodies, their payloads and upload
   * windows, shared by the routes, the decode pool and the disk buffer.
   */
  readonly bodies: BufferPool
  readonly buffer: DiskBuffer
  /** Each client's recent decode time, shared by the pool's lanes and the HTTP thread. */
  readonly shares: DecodeShares
  readonly pool: DecodePool
  readonly pl: ReturnType<typeof pipelineSettings>
  readonly pipelineEvents: PipelineEvents | undefined
  readonly watcher: PipelineWatcher | null
  readonly refer: ReferPuller | null
}

export function buildCore(loaded: LoadedConfig, t: Telemetry): Core {
  const cfg = loaded.config
  const bodies = new BufferPool(cfg.http_api.body_pool_bytes)
  const buffer = createBuffer(cfg, t.sinkEvents, bodies)
  const pl = pipelineSettings(loaded)
  const pipelineEvents = pl ? new PipelineEvents(t.log, t.metrics.registry) : undefined
  const refer = pl?.refer && pipelineEvents ? new ReferPuller(pl.refer, pipelineEvents) : null
  const watcher =
    pl && pipelineEvents ? new PipelineWatcher(pl.worker.dir, pl.watcher, pipelineEvents) : null
  const shares = DecodeShares.fromConfig(cfg.decode)
  const pool = createDecodePool(cfg, pl, { watcher, refer, events: t.events, shares, bodies })
  return { bodies, buffer, shares, pool, pl, pipelineEvents, watcher, refer }
}
