/**
 * Builds the agent's components from a loaded config and runs their lifecycle: start in data
 * flow order (buffer, decode pool, HTTP), shut down in reverse, once.
 */
import { MemoryBuffer } from './buffer/memory.js'
import type { Component } from './component.js'
import type { LoadedConfig } from './config/load.js'
import { DecodePool } from './decode/pool.js'
import { identity, type Identity } from './identity.js'
import { createApp } from './sources/http/app.js'
import { HttpServer } from './sources/http/server.js'
import { GlobalTags } from './tags/global-tags.js'
import { Events } from './telemetry/events.js'
import type { Logger } from './telemetry/logger.js'
import { addProbe, createMetrics, type Metrics } from './telemetry/metrics.js'

export class Agent {
  readonly metrics: Metrics
  readonly events: Events
  readonly identity: Identity
  readonly buffer: MemoryBuffer
  readonly pool: DecodePool
  readonly http: HttpServer
  private readonly started: Component[] = []
  private stopping: Promise<void> | null = null

  constructor(
    readonly loaded: LoadedConfig,
    readonly log: Logger,
  ) {
    const cfg = loaded.config
    this.metrics = createMetrics()
    this.events = new Events(log, this.metrics)
    this.identity = identity(cfg.agent.hostname)
    this.buffer = new MemoryBuffer(cfg.buffer.max_memory_size)
    this.pool = new DecodePool({ workers: cfg.decode.workers, maxQueue: cfg.decode.max_queue })
    const tags = new GlobalTags(
      this.identity.host,
      cfg.global_host_tags,
      cfg.election.enable,
      cfg.election.tags,
    )
    const deps = {
      config: cfg,
      decoder: this.pool,
      buffer: this.buffer,
      tags,
      events: this.events,
      identity: this.identity,
    }
    this.http = new HttpServer(
      createApp(deps, this.metrics.registry),
      cfg.http_api.listen,
      cfg.http_api.timeout,
    )
    addProbe(this.metrics, 'ferry_decode_queue_tasks', 'Decode tasks waiting for a worker.', () =>
      this.pool.queueSize(),
    )
  }

  async start(): Promise<void> {
    for (const c of [this.buffer, this.pool, this.http] as Component[]) {
      await c.start()
      this.started.push(c)
    }
    const addr = this.http.address()
    this.log.info(
      {
        event: 'agent_started',
        listen: `${addr.address}:${addr.port}`,
        version: this.identity.version,
        workers: this.pool.threads,
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
