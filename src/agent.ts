/**
 * Builds the agent's components from a loaded config and runs their lifecycle: start in data
 * flow order (buffer, decode pool, uploader, HTTP), shut down in reverse, once.
 */
import path from 'node:path'
import { DiskBuffer } from './buffer/disk/disk-buffer.js'
import type { Component } from './component.js'
import type { LoadedConfig } from './config/load.js'
import type { Config } from './config/schema.js'
import { DecodePool } from './decode/pool.js'
import { PipelineWatcher } from './pipeline/watcher.js'
import { pipelineDeps, pipelineSettings } from './pipeline/settings.js'
import { PipelineEvents } from './telemetry/pipeline-events.js'
import { identity, type Identity } from './identity.js'
import { userAgent } from './sinks/dataway/send.js'
import { Uploader } from './sinks/dataway/uploader.js'
import { parseUpstream, type Upstream } from './sinks/dataway/upstream.js'
import { WorkspaceThread } from './workspace/thread.js'
import { createApp } from './sources/http/app.js'
import { HttpServer } from './sources/http/server.js'
import { CATEGORY_NAMES } from './shared/category.js'
import { GlobalTags } from './tags/global-tags.js'
import { TagFile } from './tags/tag-file.js'
import { AccessPolicy } from './sources/http/access/policy.js'
import { Events } from './telemetry/events.js'
import type { Logger } from './telemetry/logger.js'
import { createMetrics, type Metrics } from './telemetry/metrics.js'
import { addPoolMetrics, timedDecoder } from './telemetry/pool-metrics.js'
import { SinkEvents } from './telemetry/sink-events.js'
import { addBufferGauges, createSinkMetrics } from './telemetry/sink-metrics.js'

export function bufferPath(cfg: Config): string {
  return cfg['dataway.wal'].path || path.join(cfg.agent.data_dir, 'buffer')
}

export class Agent {
  readonly metrics: Metrics
  readonly events: Events
  readonly identity: Identity
  readonly buffer: DiskBuffer
  readonly pool: DecodePool
  readonly watcher: PipelineWatcher | null
  uploader: Uploader | null = null
  readonly http: HttpServer
  readonly tags: GlobalTags
  readonly access: AccessPolicy
  /** The in-process workspace service, when it is the upstream (no `[dataway] urls`). */
  readonly workspace: WorkspaceThread | null
  private upstreams: Upstream[]
  private readonly started: Component[] = []
  private stopping: Promise<void> | null = null
  private readonly sinkEvents: SinkEvents

  constructor(
    readonly loaded: LoadedConfig,
    readonly log: Logger,
  ) {
    const cfg = loaded.config
    this.metrics = createMetrics()
    this.events = new Events(log, this.metrics)
    this.identity = identity(cfg.agent.hostname)
    const sinkEvents = new SinkEvents(log, createSinkMetrics(this.metrics.registry))
    const wal = cfg['dataway.wal']
    this.buffer = new DiskBuffer(
      {
        path: bufferPath(cfg),
        durability: wal.durability,
        maxBytesPerCategory: wal.max_capacity_gb * 1024 ** 3,
        whenFull: wal.when_full,
        minFreeDisk: wal.min_free_disk,
      },
      sinkEvents,
    )
    const pl = pipelineSettings(loaded)
    this.pool = new DecodePool({
      workers: cfg.decode.workers,
      maxQueue: cfg.decode.max_queue,
      pipeline: pl?.worker,
    })
    this.watcher = pl
      ? new PipelineWatcher(
          pl.worker.dir,
          pl.watcher,
          new PipelineEvents(log, this.metrics.registry),
        )
      : null
    this.sinkEvents = sinkEvents
    this.upstreams = cfg.dataway.urls.map(parseUpstream)
    this.workspace =
      this.upstreams.length === 0 && cfg.workspace.embedded ? new WorkspaceThread(cfg) : null
    this.tags = new GlobalTags(
      this.identity.host,
      cfg.global_host_tags,
      cfg.election.enable,
      cfg.election.tags,
    )
    this.access = new AccessPolicy(cfg.http_api)
    const decodeSeconds = addPoolMetrics(this.metrics.registry, this.pool)
    const deps = {
      config: cfg,
      decoder: timedDecoder(this.pool, decodeSeconds),
      buffer: this.buffer,
      tags: this.tags,
      tagFile: loaded.mode === 'host' && loaded.file ? new TagFile(loaded.file) : null,
      access: this.access,
      events: this.events,
      identity: this.identity,
      upstream: () => this.upstreams[0] ?? null,
      pipeline: this.watcher ? pipelineDeps(this.watcher, this.pool) : null,
      pipelineEvents: this.watcher?.events,
    }
    this.http = new HttpServer(createApp(deps, this.metrics.registry), {
      listen: cfg.http_api.listen,
      socket: cfg.http_api.listen_socket,
      timeoutMs: cfg.http_api.timeout,
      tls: cfg['http_api.tls'],
    })
    addBufferGauges(this.metrics.registry, () =>
      CATEGORY_NAMES.map((category) => ({ category, ...this.buffer.categoryStats(category) })),
    )
  }

  private createUploader(cfg: Config, events: SinkEvents): Uploader {
    const d = cfg.dataway
    return new Uploader(
      this.buffer,
      this.upstreams,
      {
        compression: d.compression,
        gzipLevel: d.gzip_level,
        userAgent: userAgent(this.identity.version, this.identity.host),
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

  private async begin(c: Component): Promise<void> {
    await c.start()
    this.started.push(c)
  }

  async start(): Promise<void> {
    if (this.workspace) {
      await this.begin(this.workspace)
      const ready = this.workspace.ready!
      this.upstreams = [parseUpstream(`${ready.url}?token=${ready.token}`)]
    }
    this.uploader = this.createUploader(this.loaded.config, this.sinkEvents)
    const parts = [this.buffer, this.watcher, this.pool, this.uploader, this.http]
    for (const c of parts) if (c) await this.begin(c)
    const addr = this.http.address()
    const upstreams = this.upstreams.map((u) => u.label)
    if (!upstreams.length)
      this.log.warn(
        { event: 'no_upstream' },
        'no [dataway] urls and no embedded workspace: accepted points stay in the disk buffer',
      )
    this.log.info(
      {
        event: 'agent_started',
        listen: `${addr.address}:${addr.port}`,
        tls: this.http.secure,
        mode: this.loaded.mode,
        version: this.identity.version,
        workers: this.pool.threads,
        upstreams,
      },
      'ferry agent started',
    )
  }

  /** Idempotent: the second call waits for the first. */
  shutdown(): Promise<void> {
    this.stopping ??= (async () => {
      for (const c of this.started.reverse()) {
        try {
          await c.shutdown()
        } catch (e) {
          this.events.internalError(`shutdown ${c.name}`, e)
        }
      }
      this.log.info({ event: 'agent_stopped' }, 'ferry agent stopped')
    })()
    return this.stopping
  }
}
