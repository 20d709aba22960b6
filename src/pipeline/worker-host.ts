/**
 * The pipeline side of a decode worker: one engine, kept in step with the script folder.
 * The HTTP thread bumps a version when the folder changes and sends it with each task; a
 * worker seeing a new version re-reads the folder (scripts that fail to compile keep their
 * previous version, deleted scripts go).
 *
 * The engine (its QuickJS runtime, the script compiler and the library) is loaded and built
 * only once a write's category has a script file in the folder: a worker that never meets one
 * never holds it (about 10 MB of heap a worker, plus the compiled scripts). Without a file of
 * the category the engine, once synced, would hold no script of it either, so the answer is
 * the same as the engine's.
 */
import type { Category } from '../shared/category.js'
import type { Point } from '../shared/point.js'
import type { Applied, applyPipeline } from './apply.js'
import type { PipelineEngine } from './engine.js'
import type { ScriptCaps } from './lib/budget.js'
import type { HttpRequestOptions } from './lib/fn-http.js'
import type { SandboxLimits } from './sandbox/sandbox.js'
import type { PlError, ScriptSource } from './scripts/compile.js'
import { scriptName } from './scripts/script-name.js'
import { scanPatterns, scanScripts } from './scripts/store.js'
import { lazyImport } from '../shared/lazy-import.js'

export interface PipelineWorkerConfig extends SandboxLimits {
  dir: string
  timezone: string
  maxBatch: number
  defaults: Record<string, string>
  /** Per-run caps (created points, output bytes); absent: none. */
  caps?: ScriptCaps
  /** Entries of the cache_set/cache_get store; absent: the default. */
  cacheMaxEntries?: number
  /** Agent texts user_agent() keeps parsed; absent: the default. */
  userAgentCacheEntries?: number
  /** Streams point_window holds points of; absent: the default. */
  maxWindowStreams?: number
  /** http_request's switch and bounds; absent: off. */
  httpRequest?: HttpRequestOptions
}

/** What a decode task says about the pipeline. */
export interface PipelineTaskInfo {
  version: number
  /** The write's `source` / `pipeline_source` parameter. */
  source: string | null
}

interface Loaded {
  engine: PipelineEngine
  applyPipeline: typeof applyPipeline
}

async function loadEngine(cfg: PipelineWorkerConfig): Promise<Loaded> {
  const [{ PipelineEngine }, { applyPipeline }] = await Promise.all([
    lazyImport<typeof import('./engine.js')>('./engine.js', import.meta.url),
    lazyImport<typeof import('./apply.js')>('./apply.js', import.meta.url),
  ])
  return { engine: await PipelineEngine.create({ ...cfg }), applyPipeline }
}

export class PipelineHost {
  private loaded: Promise<Loaded> | null = null
  private version = -1
  /** The version `categories` was read at: the categories with a script file then. */
  private scanned = -1
  private categories = new Set<string>()

  constructor(readonly cfg: PipelineWorkerConfig) {}

  /** Whether the engine has been loaded (a script of some write's category was met). */
  get built(): boolean {
    return this.loaded !== null
  }

  private async engineAt(version: number): Promise<Loaded> {
    this.loaded ??= loadEngine(this.cfg)
    const loaded = await this.loaded
    if (version !== this.version) {
      this.version = version
      sync(loaded.engine, this.cfg.dir)
    }
    return loaded
  }

  /** Whether the folder holds a script file of the category at this version. */
  private hasFiles(category: Category, version: number): boolean {
    if (version !== this.scanned) {
      this.scanned = version
      this.categories = new Set(scanScripts(this.cfg.dir).map((s) => s.category))
    }
    return this.categories.has(category)
  }

  /** Whether any script of the category is loaded at this version (else `apply` is a no-op). */
  async mayApply(category: Category, info: PipelineTaskInfo): Promise<boolean> {
    if (!this.hasFiles(category, info.version)) return false
    const { engine } = await this.engineAt(info.version)
    if (engine.size === 0) return false
    const prefix = `${category}/`
    return engine.names().some((id) => id.startsWith(prefix))
  }

  async apply(category: Category, points: Point[], info: PipelineTaskInfo): Promise<Applied> {
    if (!this.hasFiles(category, info.version)) return { points, stats: [] }
    const { engine, applyPipeline } = await this.engineAt(info.version)
    if (engine.size === 0) return { points, stats: [] }
    return applyPipeline(
      engine,
      category,
      points,
      {
        source: info.source,
        fallback: Object.hasOwn(this.cfg.defaults, category)
          ? scriptName(this.cfg.defaults[category])
          : null,
        has: (name) => engine.has(category, name),
      },
      this.cfg.maxBatch,
    )
  }
}

export function sync(
  engine: PipelineEngine,
  dir: string,
  onError?: (file: string, errors: PlError[]) => void,
): ScriptSource[] {
  engine.setPatterns(scanPatterns(dir))
  const seen = new Set<string>()
  const scripts = scanScripts(dir)
  for (const s of scripts) {
    seen.add(`${s.category}/${s.name}`)
    const errors = engine.load(s)
    if (errors.length && onError) onError(`${s.category}/${s.file}`, errors)
  }
  for (const id of engine.names()) if (!seen.has(id)) engine.remove(id)
  return scripts
}
