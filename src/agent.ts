/**
 * Builds the agent's components from a loaded config and runs their lifecycle: start in data
 * flow order (workspace, buffer, pipeline watcher, decode pool, uploader, inputs, monitor,
 * HTTP), shut down in reverse, once. `reload` applies a new config's live keys without stopping anything.
 */
import type { Component } from './component.js'
import type { LoadedConfig } from './config/load.js'
import type { DiskBuffer } from './buffer/disk/disk-buffer.js'
import type { ProbeResult } from './buffer/disk/probe.js'
import { DecodeShares } from './ingest/decode-shares.js'
import type { DecodePool } from './ingest/pool.js'
import { poolPayloads } from './ingest/spare-output.js'
import { Monitor } from './monitor/sampler.js'
import { PipelineWatcher } from './pipeline/watcher.js'
import { pipelineSettings } from './pipeline/settings.js'
import { ReferPuller } from './pipeline/refer/puller.js'
import type { ReloadPlan } from './reload.js'
import { PipelineEvents } from './telemetry/pipeline-events.js'
import { identity, type Identity } from './identity.js'
import type { Uploader } from './sinks/dataway/uploader.js'
import type { Upstream } from './sinks/dataway/upstream.js'
import type { NtpClock } from './sinks/dataway/ntp.js'
import type { IoSettings } from './ingest/io.js'
import { UplinkEvents } from './telemetry/uplink-events.js'
import { WorkspaceThread } from './workspace/thread.js'
import { startEmbedded } from './agent-workspace.js'
import { createApp } from './sources/http/app.js'
import { createRum } from './rum-build.js'
import { createDecodePool } from './agent-pool.js'
import { agentHttpDeps } from './agent-http.js'
import { logStarted } from './agent-log.js'
import { applyReload } from './agent-reload.js'
import type { ReplayForwarder } from './rum/replay/forwarder.js'
import type { RumDeps } from './sources/http/deps.js'
import { RumEvents } from './telemetry/rum-events.js'
import type { HttpDeps } from './sources/http/deps.js'
import { HttpServer } from './http/server.js'
import { CATEGORY_NAMES } from './shared/category.js'
import type { GlobalTags } from './tags/global-tags.js'
import { AccessPolicy } from './sources/http/access/policy.js'
import { Events } from './telemetry/events.js'
import type { Logger } from './telemetry/logger.js'
import { createMetrics, type Metrics } from './telemetry/metrics.js'
import { BufferPool } from './shared/buffer-pool.js'
import { SinkEvents } from './telemetry/sink-events.js'
import { ShedEvents } from './telemetry/shed-events.js'
import { TapEvents } from './telemetry/tap-events.js'
import type { TapHub } from './ingest/tap.js'
import { addBufferGauges, createSinkMetrics } from './telemetry/sink-metrics.js'
import {
  addOpsMetrics,
  createBuffer,
  createIo,
  createNtp,
  createTags,
  createTap,
  createUploader,
  createUpstreams,
  listenOptions,
  upstreamPools,
  createOtlpGrpc,
} from './agent-build.js'
import type { OtlpGrpcServer } from './sources/otlp/grpc.js'
import { createInputs } from './inputs/build.js'
import { createAggBuckets } from './inputs/agg-build.js'
import type { AggBuckets } from './pipeline/agg/buckets.js'
import type { AggOp } from './pipeline/agg/ops.js'
import type { Inputs } from './inputs/inputs.js'

export { bufferPath } from './agent-build.js'

export class Agent {
  readonly metrics: Metrics
  readonly events: Events
  readonly identity: Identity
  readonly buffer: DiskBuffer
  readonly pool: DecodePool
  /** Each client's recent decode time, shared by the pool's lanes and the HTTP thread. */
  readonly shares: DecodeShares
  /**
   * Reused buffers (`[http_api] body_pool_bytes`) for write bodies, their payloads and upload
   * windows, shared by the routes, the decode pool and the disk buffer.
   */
  readonly bodies: BufferPool
  readonly watcher: PipelineWatcher | null
  uploader: Uploader | null = null
  readonly monitor: Monitor
  readonly inputs: Inputs
  readonly http: HttpServer
  readonly otlpGrpc: OtlpGrpcServer | null
  readonly tags: GlobalTags
  readonly access: AccessPolicy
  readonly tap: TapHub | null
  /** The in-process workspace service, when it is the upstream (no `[dataway] urls`). */
  readonly workspace: WorkspaceThread | null
  private upstreams: Upstream[]
  private readonly started: Component[] = []
  private stopping: Promise<void> | null = null
  private readonly sinkEvents: SinkEvents
  private readonly ntp: NtpClock | null
  private readonly io: IoSettings
  private readonly pipelineEvents: PipelineEvents | undefined
  private readonly refer: ReferPuller | null
  /** The scripts' aggregation buckets (agg_create); null when the pipeline is off. */
  readonly agg: AggBuckets | null
  private readonly rum: { deps: RumDeps; forwarder: ReplayForwarder } | null

  constructor(
    public loaded: LoadedConfig,
    readonly log: Logger,
  ) {
    const cfg = loaded.config
    this.metrics = createMetrics()
    this.events = new Events(log, this.metrics)
    this.identity = identity(cfg.agent.hostname)
    const sinkMetrics = createSinkMetrics(this.metrics.registry)
    this.sinkEvents = new SinkEvents(log, sinkMetrics, this.events.recent)
    const uplink = new UplinkEvents(log, this.metrics.registry, sinkMetrics.dropped)
    this.bodies = new BufferPool(cfg.http_api.body_pool_bytes)
    this.buffer = createBuffer(cfg, this.sinkEvents, this.bodies)
    const pl = pipelineSettings(loaded)
    this.shares = DecodeShares.fromConfig(cfg.decode)
    this.pool = createDecodePool(cfg, pl, {
      watcher: () => this.watcher,
      refer: () => this.refer,
      events: this.events,
      shares: this.shares,
      bodies: this.bodies,
    })
    this.pipelineEvents = pl ? new PipelineEvents(log, this.metrics.registry) : undefined
    this.refer =
      pl?.refer && this.pipelineEvents ? new ReferPuller(pl.refer, this.pipelineEvents) : null
    this.watcher =
      pl && this.pipelineEvents
        ? new PipelineWatcher(pl.worker.dir, pl.watcher, this.pipelineEvents)
        : null
    this.upstreams = createUpstreams(cfg)
    this.ntp = createNtp(cfg, () => this.upstreams[0] ?? null, this.identity, uplink)
    this.io = createIo(cfg, this.ntp, uplink)
    this.rum = cfg.rum.enable
      ? createRum(
          cfg,
          this.identity,
          () => this.upstreams[0] ?? null,
          new RumEvents(log, this.metrics.registry),
        )
      : null
    this.workspace =
      this.upstreams.length === 0 && cfg.workspace.embedded ? new WorkspaceThread(cfg) : null
    this.tags = createTags(cfg, this.identity.host)
    this.tap = createTap(cfg, new TapEvents(log, this.metrics.registry))
    this.access = new AccessPolicy(cfg.http_api, new ShedEvents(log, this.metrics.registry))
    const write = {
      decoder: this.pool,
      buffer: this.buffer,
      tags: this.tags,
      events: this.events,
      tap: this.tap,
      io: this.io,
    }
    this.agg = pl ? createAggBuckets(loaded, pl.agg, write) : null
    this.inputs = createInputs(loaded, this.identity, {
      ...write,
      pipelineVersion: this.watcher ? () => this.watcher!.version() : null,
      aggregate: this.aggregate(),
    })
    this.monitor = new Monitor(this.metrics.registry, this.identity, this.events.recent, cfg.health)
    const httpDeps = this.httpDeps()
    this.http = new HttpServer(createApp(httpDeps, this.metrics.registry), {
      ...listenOptions(cfg),
      gate: this.access.gate(),
    })
    this.otlpGrpc = createOtlpGrpc(loaded, httpDeps, log, this.metrics.registry)
    addBufferGauges(this.metrics.registry, () =>
      CATEGORY_NAMES.map((category) => ({ category, ...this.buffer.categoryStats(category) })),
    )
    addOpsMetrics(this.metrics.registry, cfg, this.identity)
  }

  private aggregate(): ((ops: AggOp[]) => void) | undefined {
    const agg = this.agg
    return agg ? (ops) => agg.apply(ops) : undefined
  }

  private httpDeps(): HttpDeps {
    return agentHttpDeps({
      loaded: () => this.loaded,
      upstream: () => this.upstreams[0] ?? null,
      metrics: this.metrics,
      events: this.events,
      identity: this.identity,
      buffer: this.buffer,
      pool: this.pool,
      shares: this.shares,
      bodies: this.bodies,
      watcher: this.watcher,
      tags: this.tags,
      access: this.access,
      pipelineEvents: this.pipelineEvents,
      aggregate: this.aggregate(),
      monitor: this.monitor,
      rum: this.rum?.deps ?? null,
      workspace: this.workspace,
      tap: this.tap,
      io: this.io,
    })
  }

  private async begin(c: Component): Promise<void> {
    await c.start()
    this.started.push(c)
  }

  /** The embedded workspace becomes the one upstream once it serves. */
  private async startWorkspace(workspace: WorkspaceThread): Promise<void> {
    await startEmbedded(
      workspace,
      this.log,
      this.metrics.registry,
      (ws) => this.begin(ws),
      (up) => {
        this.upstreams = [up]
        this.uploader?.addUpstream(up)
      },
      this.loaded.config.workspace.embedded_body_size,
    )
  }

  async start(): Promise<void> {
    await this.begin(upstreamPools(() => this.upstreams))
    if (this.workspace) await this.startWorkspace(this.workspace)
    const cfg = this.loaded.config
    this.uploader = createUploader(
      cfg,
      this.buffer,
      this.upstreams,
      this.identity,
      this.sinkEvents,
      this.tags,
    )
    const forwarder = this.rum?.forwarder ?? null
    const parts = [
      this.ntp,
      this.buffer,
      this.watcher,
      this.refer,
      poolPayloads(this.bodies),
      this.pool,
      this.uploader,
      forwarder,
      this.agg,
      this.inputs,
      this.monitor,
      this.http,
      this.otlpGrpc,
    ]
    for (const c of parts) if (c) await this.begin(c)
    logStarted(this.log, {
      http: this.http,
      mode: this.loaded.mode,
      identity: this.identity,
      workers: this.pool.threads,
      upstreams: this.upstreams.map((u) => u.label),
    })
  }

  /** Accounts for damage the start-up probe found and salvaged (logged and counted). */
  bufferDamaged(found: ProbeResult): void {
    this.sinkEvents.bufferDamaged(found)
  }

  /** Applies what can change live (see reload.ts); the rest waits for a restart, and says so. */
  reload(next: LoadedConfig): ReloadPlan {
    const { plan, loaded } = applyReload(this, this.loaded, next)
    this.loaded = loaded
    return plan
  }

  /** Idempotent: the second call waits for the first. */
  shutdown(): Promise<void> {
    this.stopping ??= (async () => {
      // Open tap streams would keep the HTTP server from closing.
      this.tap?.closeAll()
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
