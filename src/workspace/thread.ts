/**
 * Runs the workspace service in a worker thread of the agent process (`npm start` with no
 * `[dataway] urls`): its HTTP server, decoding and database calls then never compete with
 * the agent's event loop. Start resolves with the address and the data token of the default
 * workspace, which becomes the agent's upstream.
 */
import { Worker } from 'node:worker_threads'
import type { Component } from '../component.js'
import { workerEntry } from '../shared/worker-file.js'
import { HELPER_THREAD_LIMITS } from '../shared/heap-flags.js'
import type { Config } from '../config/schema.js'
import { FerryError, type ErrorCode } from '../errors.js'
import { duckdbInstalled, NO_DUCKDB } from './available.js'
import { damagedText } from './store/damage.js'

export interface ThreadReady {
  url: string
  token: string
}

type Message =
  | { type: 'ready'; url: string; token: string }
  | { type: 'error'; code: ErrorCode; message: string }
  | { type: 'stopped' }
  | { type: 'damaged'; message: string }

/**
 * The embedded workspace deduplicates for at least as long as this agent may retry one package
 * id (`drop_expired_package_at`), so no resend outlives its id's record there.
 */
function embedded(config: Config): Config {
  const window = Math.max(config.workspace.dedupe_window, config.dataway.drop_expired_package_at)
  return { ...config, workspace: { ...config.workspace, dedupe_window: window } }
}

/** What the agent hears of a running workspace. */
export interface DamageListener {
  /** A query or write failed on a damaged database file (again only when the message changes). */
  damaged(message: string): void
}

/** What the agent hears of later start attempts after a failed first one. */
export interface RetryListener {
  /** The workspace started on a later attempt: `ready` is set and `failure` cleared. */
  recovered(ready: ThreadReady): void
  /** Another attempt failed; the next one comes after `nextMs`. */
  retryFailed(err: FerryError, nextMs: number): void
}

const asFerryError = (e: unknown) =>
  e instanceof FerryError ? e : new FerryError('internalError', String((e as Error)?.message ?? e))

export class WorkspaceThread implements Component {
  readonly name = 'workspace-thread'
  private worker: Worker | null = null
  private stopping: Promise<void> | null = null
  private retry: RetryListener | null = null
  private retryTimer: NodeJS.Timeout | null = null
  private attempt: Promise<void> | null = null
  ready: ThreadReady | null = null
  /** Why the workspace could not start (the agent runs on without it), or null. */
  failure: FerryError | null = null
  /** DuckDB's latest message of damage met while running, or null. */
  damage: string | null = null
  private damageListener: DamageListener | null = null

  constructor(private readonly config: Config) {}

  /**
   * A missing DuckDB stops the agent (nothing could ever be uploaded: a setup mistake). Any
   * other failure (a damaged or unreadable database) fails the workspace alone: recorded in
   * `failure`, and the agent keeps accepting and buffering.
   */
  async start(): Promise<void> {
    if (!duckdbInstalled()) throw new FerryError('configInvalid', NO_DUCKDB)
    await this.tryStart()
  }

  private async tryStart(): Promise<boolean> {
    try {
      await this.startWorker()
      this.failure = null
      return true
    } catch (e) {
      this.failure = asFerryError(e)
      void this.worker?.terminate()
      this.worker = null
      return false
    }
  }

  /**
   * After a failed start, tries again at `embedded_retry_initial`, doubling up to
   * `embedded_retry_max`, until one attempt starts (a repaired or replaced database) or the
   * thread shuts down. Each attempt is a fresh worker: a failed one holds no file open.
   */
  retryUntilStarted(listener: RetryListener): void {
    const initial = this.config.workspace.embedded_retry_initial
    if (!this.failure || initial === 0 || this.stopping) return
    this.retry = listener
    this.schedule(initial)
  }

  private schedule(delayMs: number): void {
    const max = this.config.workspace.embedded_retry_max
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null
      this.attempt = (async () => {
        if (this.stopping) return
        if (await this.tryStart()) {
          if (this.stopping) return
          return this.retry?.recovered(this.ready!)
        }
        const next = Math.min(delayMs * 2, max)
        this.retry?.retryFailed(this.failure!, next)
        if (!this.stopping) this.schedule(next)
      })()
    }, delayMs)
  }

  /** Told of damage the running workspace meets (set before `start`). */
  onDamage(listener: DamageListener): void {
    this.damageListener = listener
  }

  /**
   * `ok`, `failed: <reason>` (it could not start), or `degraded: <reason>` (it runs, and a
   * query or write failed on a damaged database file): shown by the agent's `/v1/ping`.
   */
  state(): string {
    if (this.failure) return `failed: ${this.failure.message}`
    if (this.damage) return `degraded: ${damagedText(this.damage)}`
    return 'ok'
  }

  private heard(m: Message): void {
    if (m.type !== 'damaged') return
    this.damage = m.message
    this.damageListener?.damaged(m.message)
  }

  private async startWorker(): Promise<void> {
    const worker = new Worker(workerEntry('workspace'), {
      workerData: { config: embedded(this.config) },
      resourceLimits: HELPER_THREAD_LIMITS,
    })
    this.worker = worker
    this.ready = await new Promise<ThreadReady>((resolve, reject) => {
      worker.once('error', reject)
      worker.once('exit', (code) =>
        reject(new FerryError('internalError', `the workspace thread exited (${code})`)),
      )
      worker.once('message', (m: Message) => {
        if (m.type === 'ready') resolve({ url: m.url, token: m.token })
        else if (m.type === 'error') reject(new FerryError(m.code, m.message))
      })
    })
    worker.removeAllListeners('exit')
    worker.removeAllListeners('error')
    this.damage = null
    worker.on('message', (m: Message) => this.heard(m))
  }

  /** Asks the service to drain and close; terminates the thread if it does not within 10 s. */
  shutdown(): Promise<void> {
    this.stopping ??= (async () => {
      if (this.retryTimer) clearTimeout(this.retryTimer)
      await this.attempt
      const w = this.worker
      if (!w) return
      const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()))
      w.postMessage({ type: 'stop' })
      const timer = setTimeout(() => void w.terminate(), 10_000)
      await exited
      clearTimeout(timer)
    })()
    return this.stopping
  }
}
