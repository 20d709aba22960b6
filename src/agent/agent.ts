/**
 * Builds the agent's components from a loaded config and runs their lifecycle: start in data
 * flow order (workspace, buffer, pipeline watcher, decode pool, uploader, inputs, monitor,
 * HTTP), shut down in reverse, once. `reload` applies a new config's live keys without stopping
 * anything.
 *
 * The parts are built in four groups, each on the ones before it: telemetry and the write core
 * (core.ts), the uplink (uplink.ts), the front (front.ts). Building starts nothing.
 */
import type { Component } from '../component.js'
import type { LoadedConfig } from '../config/load.js'
import type { ProbeResult } from '../buffer/disk/probe.js'
import { identity, type Identity } from '../identity.js'
import { poolPayloads } from '../ingest/spare-output.js'
import type { ReloadPlan } from '../reload.js'
import { CATEGORY_NAMES } from '../shared/category.js'
import type { Uploader } from '../sinks/dataway/uploader.js'
import type { Events } from '../telemetry/events.js'
import type { Logger } from '../telemetry/logger.js'
import { addBufferGauges } from '../telemetry/sink-metrics.js'
import { addOpsMetrics, createUploader, upstreamPools } from './build.js'
import { buildCore, buildTelemetry, type Core, type Telemetry } from './core.js'
import { buildFront, type Front } from './front.js'
import { logStarted } from './log.js'
import { applyReload } from './reload.js'
import { buildUplink, type Uplink } from './uplink.js'
import { startEmbedded } from './workspace.js'

export { bufferPath } from './build.js'

export class Agent {
  private readonly identity: Identity
  private readonly t: Telemetry
  private readonly core: Core
  private readonly uplink: Uplink
  private readonly front: Front
  private uploader: Uploader | null = null
  private readonly started: Component[] = []
  private stopping: Promise<void> | null = null

  constructor(
    public loaded: LoadedConfig,
    readonly log: Logger,
  ) {
    const cfg = loaded.config
    this.identity = identity(cfg.agent.hostname)
    this.t = buildTelemetry(log)
    this.core = buildCore(loaded, this.t)
    this.uplink = buildUplink(loaded, this.identity, this.t)
    this.front = buildFront({
      running: () => this.loaded,
      identity: this.identity,
      t: this.t,
      core: this.core,
      uplink: this.uplink,
    })
    const registry = this.t.metrics.registry
    const buffer = this.core.buffer
    addBufferGauges(registry, () =>
      CATEGORY_NAMES.map((category) => ({ category, ...buffer.categoryStats(category) })),
    )
    addOpsMetrics(registry, cfg, this.identity)
  }

  get events(): Events {
    return this.t.events
  }

  private async begin(c: Component): Promise<void> {
    await c.start()
    this.started.push(c)
  }

  /** The embedded workspace becomes the one upstream once it serves. */
  private async startWorkspace(): Promise<void> {
    const { workspace, upstreams } = this.uplink
    if (!workspace) return
    await startEmbedded(
      workspace,
      this.log,
      this.t.metrics.registry,
      (ws) => this.begin(ws),
      (up) => {
        upstreams.list = [up]
        this.uploader?.addUpstream(up)
      },
      this.loaded.config.workspace.embedded_body_size,
    )
  }

  /** Components in start order; the ones a config leaves out are null. */
  private parts(uploader: Uploader): (Component | null)[] {
    const { core, uplink, front } = this
    return [
      uplink.ntp,
      core.buffer,
      core.watcher,
      core.refer,
      poolPayloads(core.bodies),
      core.pool,
      uploader,
      uplink.rum?.forwarder ?? null,
      front.agg,
      front.inputs,
      front.monitor,
      front.http,
      front.otlpGrpc,
    ]
  }

  async start(): Promise<void> {
    const { upstreams } = this.uplink
    await this.begin(upstreamPools(() => upstreams.list))
    await this.startWorkspace()
    this.uploader = createUploader(
      this.loaded.config,
      this.core.buffer,
      upstreams.list,
      this.identity,
      this.t.sinkEvents,
      this.front.tags,
    )
    for (const c of this.parts(this.uploader)) if (c) await this.begin(c)
    logStarted(this.log, {
      http: this.front.http,
      mode: this.loaded.mode,
      identity: this.identity,
      workers: this.core.pool.threads,
      upstreams: upstreams.list.map((u) => u.label),
    })
  }

  /** Accounts for damage the start-up probe found and salvaged (logged and counted). */
  bufferDamaged(found: ProbeResult): void {
    this.t.sinkEvents.bufferDamaged(found)
  }

  /** Applies what can change live (see reload.ts); the rest waits for a restart, and says so. */
  reload(next: LoadedConfig): ReloadPlan {
    const live = { ...this.front, log: this.log, watcher: this.core.watcher, events: this.events }
    const { plan, loaded } = applyReload(live, this.loaded, next)
    this.loaded = loaded
    return plan
  }

  /** Idempotent: the second call waits for the first. */
  shutdown(): Promise<void> {
    this.stopping ??= (async () => {
      // Open tap streams would keep the HTTP server from closing.
      this.front.tap?.closeAll()
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
