/**
 * The workspace service: the stores (the engine and the metadata, store/open.ts) and the HTTP
 * API as one component. Start opens the stores (a DuckDB file refuses a second process) and
 * listens; shutdown stops listening, lets queued writes commit, then closes the stores.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { Registry } from 'prom-client'
import type { Component } from '../component.js'
import { FerryError } from '../errors.js'
import type { Config, WorkspaceConfig } from '../config/schema.js'
import type { WorkspaceClickHouseConfig } from '../config/schema-workspace-clickhouse.js'
import { HttpServer } from '../http/server.js'
import type { Logger } from '../telemetry/logger.js'
import { createWorkspaceApp } from './api/app.js'
import type { WorkspaceDeps } from './api/deps.js'
import { WorkspaceEvents } from './events.js'
import { KeyThrottle } from './api/key-throttle.js'
import { ensureDefaultWorkspace } from './first-start.js'
import type { Workspace } from './store/accounts.js'
import { openStores, type WorkspaceStores } from './store/open.js'
import { UploadDecoder } from './ingest/pool.js'
import { RetentionJob } from './retention-job.js'
import { IngestQuota } from './ingest/quota.js'
import { Admission } from './ingest/admission.js'

export function workspaceDir(cfg: Config): string {
  return cfg.workspace.data_dir || path.join(cfg.agent.data_dir, 'workspace')
}

export const ADMIN_SECRET_FILE = 'admin.secret'

/** What the host of the service hears besides logs and metrics (the embedded thread). */
export interface ServiceHooks {
  /** A query or write failed on a damaged database file, with DuckDB's message. */
  damaged?: (message: string) => void
}

export class WorkspaceService implements Component {
  readonly name = 'workspace'
  private stores: WorkspaceStores | null = null
  private http: HttpServer | null = null
  private readonly decoder: UploadDecoder
  private stopping: Promise<void> | null = null
  private retention: RetentionJob | null = null
  /** The wired parts, once started (tests and benchmarks reach the store through these). */
  deps: WorkspaceDeps | null = null

  constructor(
    private readonly cfg: WorkspaceConfig,
    private readonly dir: string,
    private readonly log: Logger,
    private readonly hooks: ServiceHooks = {},
    /** `[workspace.clickhouse]`, read when `engine = "clickhouse"`. */
    private readonly clickhouse?: WorkspaceClickHouseConfig,
  ) {
    this.decoder = new UploadDecoder(cfg.decode_workers, 64)
  }

  async start(): Promise<void> {
    const c = this.cfg
    // The directory holds the admin secret and first keys whatever the engine; DuckDB's file
    // made it before, but on ClickHouse nothing else does.
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 })
    const stores = await openStores(c, this.dir, this.clickhouse)
    this.stores = stores
    await this.decoder.start()
    const registry = new Registry()
    const deps = this.wire(stores, registry)
    this.deps = deps
    this.watchDamage(stores, deps.events)
    this.retention = new RetentionJob(stores.engine, c, deps.events)
    this.retention.start()
    this.http = new HttpServer(createWorkspaceApp(deps, registry), {
      listen: c.listen,
      socket: '',
      timeoutMs: 60_000,
      tls: { cert: '', privkey: '' },
    })
    await this.http.start()
    const addr = this.address()
    this.log.info(
      { event: 'workspace_started', listen: `${addr.address}:${addr.port}`, dir: this.dir },
      'workspace service started',
    )
  }

  /** The API's parts over the opened stores. */
  private wire(stores: WorkspaceStores, registry: Registry): WorkspaceDeps {
    const c = this.cfg
    const { engine, meta } = stores
    return {
      config: c,
      engine,
      accounts: meta.accounts,
      dashboards: meta.dashboards,
      notes: meta.notes,
      labels: meta.labels,
      envVariables: meta.envVariables,
      replays: meta.replays,
      retentionOverrides: meta.retentionOverrides,
      decoder: this.decoder,
      quota: new IngestQuota(c.ingest_quota),
      admission: new Admission(c.ingest_queue_bytes),
      events: new WorkspaceEvents(this.log, registry),
      keys: new KeyThrottle({
        limit: c.login_failures,
        windowMs: c.login_window,
        maxClients: c.login_clients,
      }),
      storageDown: () => stores.down(),
      adminSecret: this.writeAdminSecret(),
    }
  }

  /** Damage met after the start probe: logged and counted, and told to the host. */
  private watchDamage(stores: WorkspaceStores, events: WorkspaceEvents): void {
    stores.onDamage((message) => {
      events.damaged(message)
      this.hooks.damaged?.(message)
    })
    stores.onHealth((down) => events.storageHealth(down))
    stores.onResidual((reason, req, why) => events.dedupeResidual(reason, req, why))
    stores.onDdlUnfinished((statement, waitedMs) => events.ddlUnfinished(statement, waitedMs))
  }

  /**
   * A fresh secret per start, readable only by this user. On ClickHouse nothing else makes the
   * directory: a new instance starts with an empty data directory.
   */
  private writeAdminSecret(): string {
    const secret = crypto.randomBytes(24).toString('hex')
    const file = path.join(this.dir, ADMIN_SECRET_FILE)
    fs.mkdirSync(this.dir, { recursive: true })
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 })
    fs.chmodSync(file, 0o600)
    return secret
  }

  address(): AddressInfo {
    if (!this.http) throw new FerryError('internalError', 'the workspace service is not started')
    return this.http.address()
  }

  ensureWorkspace(name: string): Promise<Workspace> {
    if (!this.deps) throw new FerryError('internalError', 'the workspace service is not started')
    return this.deps.accounts.ensure(name)
  }

  /** The embedded service's upstream workspace: created on first start with an API key. */
  ensureDefaultWorkspace(name: string): Promise<Workspace> {
    if (!this.deps) throw new FerryError('internalError', 'the workspace service is not started')
    return ensureDefaultWorkspace(this.deps.accounts, name, this.dir, this.log)
  }

  /** Runs a retention sweep now (tests; the job runs it every `retention_interval`). */
  sweepRetention(): Promise<void> {
    if (!this.retention)
      throw new FerryError('internalError', 'the workspace service is not started')
    return this.retention.runOnce()
  }

  shutdown(): Promise<void> {
    this.stopping ??= (async () => {
      await this.http?.shutdown()
      await this.retention?.stop()
      await this.decoder.shutdown()
      await this.stores?.close()
      this.log.info({ event: 'workspace_stopped' }, 'workspace service stopped')
    })()
    return this.stopping
  }
}
