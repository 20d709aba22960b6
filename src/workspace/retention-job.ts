/**
 * Runs the retention sweep every `retention_interval`, one sweep at a time (a slow sweep delays
 * the next instead of overlapping it). The timer is unref'd: retention never keeps a process up.
 */
import type { WorkspaceConfig } from '../config/schema.js'
import type { WorkspaceEvents } from './events.js'
import type { StorageEngine } from './store/engine.js'

export class RetentionJob {
  private timer: NodeJS.Timeout | null = null
  private running: Promise<void> | null = null

  constructor(
    private readonly engine: Pick<StorageEngine, 'retain'>,
    private readonly cfg: WorkspaceConfig,
    private readonly events: WorkspaceEvents,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.runOnce(), this.cfg.retention_interval)
    this.timer.unref()
  }

  /** One sweep now (or the one already running); failures are logged, never thrown. */
  runOnce(): Promise<void> {
    this.running ??= (async () => {
      const started = performance.now()
      try {
        const results = await this.engine.retain(this.cfg)
        this.events.retentionSwept(results, (performance.now() - started) / 1000)
      } catch (e) {
        this.events.retentionFailed(e)
      } finally {
        this.running = null
      }
    })()
    return this.running
  }

  /** Stops the timer and waits for a sweep in progress, so the database closes after it. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await this.running
  }
}
