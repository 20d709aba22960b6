/** Builders of the agent's components from the config: one place maps config keys to options. */
import path from 'node:path'
import { DiskBuffer } from './buffer/disk/disk-buffer.js'
import type { Config } from './config/schema.js'
import type { Identity } from './identity.js'
import { userAgent } from './sinks/dataway/send.js'
import { Uploader } from './sinks/dataway/uploader.js'
import type { Upstream } from './sinks/dataway/upstream.js'
import type { SinkEvents } from './telemetry/sink-events.js'
import { GlobalTags } from './tags/global-tags.js'
import type { ListenOptions } from './http/server.js'
import type { Registry } from 'prom-client'
import { CATEGORY_NAMES } from './shared/category.js'
import { addBuildInfo, addCapacityGauges } from './telemetry/ops-metrics.js'
import { TapHub, type TapEvents } from './ingest/tap.js'

export function bufferPath(cfg: Config): string {
  return cfg['dataway.wal'].path || path.join(cfg.agent.data_dir, 'buffer')
}

export function createBuffer(cfg: Config, events: SinkEvents): DiskBuffer {
  const wal = cfg['dataway.wal']
  return new DiskBuffer(
    {
      path: bufferPath(cfg),
      durability: wal.durability,
      maxBytesPerCategory: wal.max_capacity_gb * 1024 ** 3,
      maxTotalBytes: wal.max_total_capacity_gb * 1024 ** 3,
      whenFull: wal.when_full,
      minFreeDisk: wal.min_free_disk,
    },
    events,
  )
}

export function createUploader(
  cfg: Config,
  buffer: DiskBuffer,
  upstreams: Upstream[],
  id: Identity,
  events: SinkEvents,
): Uploader {
  const d = cfg.dataway
  return new Uploader(
    buffer,
    upstreams,
    {
      compression: d.compression,
      gzipLevel: d.gzip_level,
      userAgent: userAgent(id.version, id.host),
      maxRawBodySize: d.max_raw_body_size,
      timeoutMs: d.timeout,
      retryInitialMs: d.retry_initial,
      retryMaxMs: d.retry_max,
      maxAgeMs: d.drop_expired_package_at,
      concurrency: d.upload_concurrency,
      shutdownTimeoutMs: d.shutdown_timeout,
      maxDeadLetters: d.max_dead_letters,
    },
    events,
  )
}

export function createTags(cfg: Config, host: string): GlobalTags {
  return new GlobalTags(host, cfg.global_host_tags, cfg.election.enable, cfg.election.tags)
}

export function listenOptions(cfg: Config): ListenOptions {
  return {
    listen: cfg.http_api.listen,
    socket: cfg.http_api.listen_socket,
    timeoutMs: cfg.http_api.timeout,
    tls: cfg['http_api.tls'],
  }
}

/** `ferry_build_info` and the buffer's capacity, from the same keys the buffer is built with. */
export function addOpsMetrics(registry: Registry, cfg: Config, id: Identity): void {
  const wal = cfg['dataway.wal']
  addBuildInfo(registry, id)
  addCapacityGauges(registry, {
    perCategory: wal.max_capacity_gb * 1024 ** 3,
    total: wal.max_total_capacity_gb * 1024 ** 3,
    categories: CATEGORY_NAMES,
  })
}

/** Null when `[tap] max_clients = 0`: then `/v1/tap` does not exist. */
export function createTap(cfg: Config, events: TapEvents): TapHub | null {
  const t = cfg.tap
  return t.max_clients > 0
    ? new TapHub({ maxClients: t.max_clients, queuePoints: t.queue_points }, events)
    : null
}
