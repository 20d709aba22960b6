/** Builders of the agent's components from the config: one place maps config keys to options. */
import path from 'node:path'
import { DiskBuffer } from '../buffer/disk/disk-buffer.js'
import type { Config } from '../config/schema.js'
import type { Identity } from '../identity.js'
import { userAgent } from '../sinks/dataway/send.js'
import { Uploader } from '../sinks/dataway/uploader.js'
import { parseUpstream, type Upstream } from '../sinks/dataway/upstream.js'
import {
  createDispatcher,
  createNative,
  tlsMaterial,
  withDispatcher,
  type NetworkOptions,
} from '../sinks/dataway/network.js'
import { NtpClock, type NtpEvents } from '../sinks/dataway/ntp.js'
import { sinkKeys } from '../sinks/dataway/sinker.js'
import { ioSettings, type IoEvents, type IoSettings } from '../ingest/io.js'
import type { Component } from '../component.js'
import type { SinkEvents } from '../telemetry/sink-events.js'
import type { Logger } from '../telemetry/logger.js'
import { GlobalTags } from '../tags/global-tags.js'
import type { ListenOptions } from '../http/server.js'
import type { Registry } from 'prom-client'
import { CATEGORY_NAMES } from '../shared/category.js'
import type { BufferPool } from '../shared/buffer-pool.js'
import { addBuildInfo, addCapacityGauges } from '../telemetry/ops-metrics.js'
import { TapHub, type TapEvents } from '../ingest/tap.js'
import type { LoadedConfig } from '../config/load.js'
import type { HttpDeps } from '../sources/http/deps.js'
import { OtlpGrpcServer } from '../sources/otlp/grpc.js'
import { OtlpEvents } from '../telemetry/otlp-events.js'

export function bufferPath(cfg: Config): string {
  return cfg['dataway.wal'].path || path.join(cfg.agent.data_dir, 'buffer')
}

export function createBuffer(cfg: Config, events: SinkEvents, buffers?: BufferPool): DiskBuffer {
  const wal = cfg['dataway.wal']
  return new DiskBuffer(
    {
      path: bufferPath(cfg),
      durability: wal.durability,
      maxBytesPerCategory: wal.max_capacity_gb * 1024 ** 3,
      maxTotalBytes: wal.max_total_capacity_gb * 1024 ** 3,
      whenFull: wal.when_full,
      minFreeDisk: wal.min_free_disk,
      maxResident: wal.max_resident,
      buffers,
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
  tags?: GlobalTags,
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
      sinkKeys: () =>
        d.enable_sinker && tags
          ? sinkKeys(Object.keys(tags.hostTags()), d.global_customer_keys)
          : [],
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

export function networkOptions(cfg: Config): NetworkOptions {
  const d = cfg.dataway
  return {
    proxy: d.http_proxy,
    envProxy: d.use_env_proxy,
    insecure: d.tls_insecure,
    caFile: d.tls_ca_file,
    certFile: d.tls_cert_file,
    keyFile: d.tls_key_file,
  }
}

/** `[dataway] urls`, each with a connection pool of its own (proxy, TLS). */
export function createUpstreams(cfg: Config): Upstream[] {
  const net = networkOptions(cfg)
  const tls = tlsMaterial(net)
  return cfg.dataway.urls.map((u) =>
    withDispatcher(parseUpstream(u), createDispatcher(net, tls), createNative(net, tls)),
  )
}

/** Closes the upstreams' connection pools; started first, so it stops last. */
export function upstreamPools(upstreams: () => Upstream[]): Component {
  return {
    name: 'upstream-pools',
    start: async () => {},
    shutdown: async () => {
      for (const u of upstreams()) u.native?.close()
      await Promise.allSettled(upstreams().map((u) => u.dispatcher?.close()))
    },
  }
}

/** The clock of the first configured upstream; null when off or when there is none. */
export function createNtp(
  cfg: Config,
  upstream: () => Upstream | null,
  id: Identity,
  events: NtpEvents,
): NtpClock | null {
  const n = cfg['dataway.ntp']
  if (!n.enable || cfg.dataway.urls.length === 0) return null
  return new NtpClock(
    upstream,
    {
      intervalMs: n.interval,
      diffMs: n.diff,
      timeoutMs: Math.min(cfg.dataway.timeout, 10_000),
      userAgent: userAgent(id.version, id.host),
    },
    events,
  )
}

export function createIo(cfg: Config, ntp: NtpClock | null, events: IoEvents): IoSettings {
  return ioSettings(
    {
      autoTimestampCorrection: cfg.io.auto_timestamp_correction,
      filters: cfg.io.filters as Record<string, string[]>,
    },
    ntp ? () => ntp.offsetMs() : () => 0,
    events,
  )
}

/**
 * The OTLP/gRPC receiver when `[otlp]` and `grpc_enable` are on; in container mode only when
 * ENV_OTLP_GRPC_ENABLE asks for it (a container's ports are published one by one).
 */
export function createOtlpGrpc(
  loaded: LoadedConfig,
  deps: HttpDeps,
  log: Logger,
  registry: Registry,
): OtlpGrpcServer | null {
  const o = loaded.config.otlp
  if (!o.enable || !o.grpc_enable) return null
  if (loaded.mode === 'container' && !loaded.fromEnv.includes('ENV_OTLP_GRPC_ENABLE')) return null
  return new OtlpGrpcServer(deps, new OtlpEvents(log, registry), o.grpc_listen)
}
