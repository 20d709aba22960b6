/**
 * The pipeline side of a decode worker: one engine, kept in step with the script folder.
 * The HTTP thread bumps a version when the folder changes and sends it with each task; a
 * worker seeing a new version re-reads the folder (scripts that fail to compile keep their
 * previous version, deleted scripts go).
 */
import type { Category } from '../shared/category.js'
import type { Point } from '../shared/point.js'
import { applyPipeline, type Applied } from './apply.js'
import { PipelineEngine } from './engine.js'
import type { ScriptCaps } from './lib/budget.js'
import type { HttpRequestOptions } from './lib/fn-http.js'
import type { SandboxLimits } from './sandbox/sandbox.js'
import { scriptName, type PlError, type ScriptSource } from './scripts/compile.js'
import { scanPatterns, scanScripts } from './scripts/store.js'

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

export class PipelineHost {
  private engine: Promise<PipelineEngine> | null = null
  private version = -1

  constructor(readonly cfg: PipelineWorkerConfig) {}

  private async engineAt(version: number): Promise<PipelineEngine> {
    this.engine ??= PipelineEngine.create({ ...this.cfg })
    const engine = await this.engine
    if (version !== this.version) {
      this.version = version
      sync(engine, this.cfg.dir)
    }
    return engine
  }

  /** Whether any script of the category is loaded at this version (else `apply` is a no-op). */
  async mayApply(category: Category, info: PipelineTaskInfo): Promise<boolean> {
    const engine = await this.engineAt(info.version)
    if (engine.size === 0) return false
    const prefix = `${category}/`
    return engine.names().some((id) => id.startsWith(prefix))
  }

  async apply(category: Category, points: Point[], info: PipelineTaskInfo): Promise<Applied> {
    const engine = await this.engineAt(info.version)
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
