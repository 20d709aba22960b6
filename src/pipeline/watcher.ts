/**
 * The HTTP thread's view of the script folder: polls it (stat only) every `reload_interval`;
 * when anything changed it bumps the version the decode workers follow, and compiles every
 * script once here to report errors (workers compile too, silently, keeping old versions).
 */
import type { Component } from '../component.js'
import { PipelineEngine } from './engine.js'
import type { SandboxLimits } from './sandbox/sandbox.js'
import type { PlError } from './scripts/compile.js'
import { fingerprint } from './scripts/store.js'
import { sync } from './worker-host.js'

/** What the watcher reports (the agent's telemetry implements it). */
export interface WatcherEvents {
  compileFailed(file: string, errors: PlError[]): void
  loaded(version: number, scripts: number): void
}

export class PipelineWatcher implements Component {
  readonly name = 'pipeline-watcher'
  private current = 0
  private print = ''
  private timer: NodeJS.Timeout | null = null
  private checker: PipelineEngine | null = null
  private geoip = false
  /** Categories with at least one script at the current version. */
  private categories = new Set<string>()

  constructor(
    private readonly dir: string,
    private readonly limits: SandboxLimits & { timezone: string; reloadMs: number },
    private readonly events: WatcherEvents,
  ) {}

  version(): number {
    return this.current
  }

  /** Whether a script calls `geoip()`: then writes bring the shared IP database along. */
  usesGeoip(): boolean {
    return this.geoip
  }

  /**
   * Whether a script may apply to `category` at `version` (as the workers decide: any script
   * of that category); true for any version but the current one.
   */
  mayApply(category: string, version: number): boolean {
    return version !== this.current || this.categories.has(category)
  }

  async start(): Promise<void> {
    if (this.checker) return
    this.checker = await PipelineEngine.create(this.limits)
    this.poll()
    this.timer = setInterval(() => this.poll(), this.limits.reloadMs)
    this.timer.unref()
  }

  /** Re-reads the folder now when it changed (also what SIGHUP-style reloads would call). */
  poll(): void {
    const print = fingerprint(this.dir)
    if (print === this.print || !this.checker) return
    this.print = print
    this.current++
    const failed = new Map<string, PlError[]>()
    const scripts = sync(this.checker, this.dir, (file, errors) => failed.set(file, errors))
    this.geoip = scripts.some((s) => callsGeoip(s.source))
    this.categories = new Set(this.checker.names().map((id) => id.slice(0, id.indexOf('/'))))
    for (const [file, errors] of failed) this.events.compileFailed(file, errors)
    this.events.loaded(this.current, this.checker.names().length)
  }

  async shutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    this.checker?.dispose()
    this.checker = null
  }
}

/** A script that mentions `geoip(` (a comment too: harmless, it only loads the database). */
export function callsGeoip(source: string): boolean {
  return /\bgeoip\s*\(/.test(source)
}
