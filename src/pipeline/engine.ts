/**
 * The pipeline engine of one worker: compiled scripts, their scopes, and the sandbox that
 * runs them. `run` takes the points of one script and changes them in place.
 *
 * Invariants:
 * - A script that fails to compile never replaces a working version of itself.
 * - A failing script leaves its points as they entered (`error` set, `fromPl` restores them);
 *   points are never lost inside the engine.
 * - Library errors for one point mark that point only.
 */
import { applyLibraryLimits, type EngineOptions } from './engine-options.js'
import { BUILTIN_PATTERNS } from './grok/patterns.js'
import { RunBudget } from './lib/budget.js'
import type { CallCtx, ScriptScope } from './lib/context.js'
import type { PlPoint } from './lib/pl-point.js'
import { LIBRARY } from './lib/registry.js'
import { applyWindows } from './lib/window.js'
import type { CompiledScript } from './ppl/compile.js'
import { fail, finishRun, guarded, type RunStats } from './run-stats.js'
import { Sandbox, SandboxFault } from './sandbox/sandbox.js'
import { compileScript, scriptName, type PlError, type ScriptSource } from './scripts/compile.js'

interface Loaded {
  source: ScriptSource
  compiled: CompiledScript
  scope: ScriptScope
}

const NAMES = Object.keys(LIBRARY)
const FNS = NAMES.map((n) => LIBRARY[n])

export class PipelineEngine {
  private scripts = new Map<string, Loaded>()
  private patterns = new Map<string, string>()
  private current: { points: PlPoint[]; ctx: CallCtx } | null = null

  private constructor(
    private readonly sandbox: Sandbox,
    private readonly opts: EngineOptions,
  ) {}

  static async create(opts: EngineOptions): Promise<PipelineEngine> {
    let engine: PipelineEngine | null = null
    const sandbox = await Sandbox.create(opts, NAMES, (fn, args, index) =>
      engine!.host(fn, args, index),
    )
    engine = new PipelineEngine(sandbox, opts)
    applyLibraryLimits(opts)
    return engine
  }

  /** Custom patterns (pipeline/pattern/); the built-ins override them. */
  setPatterns(p: Map<string, string>): void {
    this.patterns = p
    for (const s of this.scripts.values()) s.scope.grok.clear()
  }

  private newScope(src: ScriptSource): ScriptScope {
    const patterns = new Map<string, string>()
    return {
      name: src.name,
      category: src.category,
      patterns,
      patternsVersion: 0,
      grok: new Map(),
      lookup: (n) => patterns.get(n) ?? BUILTIN_PATTERNS[n] ?? this.patterns.get(n),
    }
  }

  /** Loads or replaces one script; returns its compile errors (empty when it loaded). */
  load(src: ScriptSource): PlError[] {
    const id = `${src.category}/${src.name}`
    const old = this.scripts.get(id)
    if (old && old.source.source === src.source && old.source.lang === src.lang) return []
    const r = compileScript(src)
    if ('errors' in r) return r.errors
    try {
      this.sandbox.define(id, r.compiled.js, src.file)
    } catch (e) {
      if (old) this.sandbox.define(id, old.compiled.js, old.source.file)
      return [jsError(src.file, (e as Error).message)]
    }
    this.scripts.set(id, { source: src, compiled: r.compiled, scope: this.newScope(src) })
    return []
  }

  /** Removes a script by its id, `<category>/<name>` as `names()` lists it. */
  remove(id: string): void {
    this.scripts.delete(id)
  }

  get size(): number {
    return this.scripts.size
  }

  has(category: string, name: string): boolean {
    return this.scripts.has(`${category}/${name}`)
  }

  names(): string[] {
    return [...this.scripts.keys()]
  }

  private straight(id: string, seen = new Set<string>()): boolean {
    const s = this.scripts.get(id)
    if (!s || !s.compiled.straight || seen.has(id)) return false
    seen.add(id)
    const dir = id.slice(0, id.indexOf('/') + 1)
    return s.compiled.uses.every((u) => this.straight(dir + scriptName(u), seen))
  }

  private host(fn: number, args: unknown[], index: number): unknown {
    const cur = this.current!
    const f = FNS[fn]
    if (index >= 0) {
      const p = cur.points[index]
      return p.done ? null : guarded(f, cur.ctx, p, args)
    }
    const points = cur.points
    for (let i = 0; i < points.length; i++)
      if (!points[i].done) guarded(f, cur.ctx, points[i], args)
    return undefined
  }

  private ensureDefined(): void {
    for (const [id, s] of this.scripts)
      if (!this.sandbox.isDefined(id)) this.sandbox.define(id, s.compiled.js, s.source.file)
  }

  /** Runs the script on the points (changed in place); `forcePointMode` is for tests. */
  run(category: string, name: string, points: PlPoint[], forcePointMode = false): RunStats {
    const id = `${category}/${name}`
    const s = this.scripts.get(id)!
    const batch = !forcePointMode && this.straight(id)
    const ctx: CallCtx = {
      scope: s.scope,
      tz: this.opts.timezone,
      statusMapping: true,
      timeLimitMs: this.opts.batchTimeoutMs,
    }
    const budget = this.opts.caps ? new RunBudget(this.opts.caps) : null
    for (const p of points) p.budget = budget
    this.current = { points, ctx }
    try {
      this.ensureDefined()
      const errors = this.sandbox.run(id, points.length, batch)
      // A point a library call already failed keeps that first error.
      for (const [i, msg] of errors) if (points[i].error === null) fail(points[i], msg)
    } catch (e) {
      const msg = e instanceof SandboxFault ? e.message : `sandbox failed: ${(e as Error).message}`
      for (const p of points) if (p.error === null) fail(p, msg)
    } finally {
      this.current = null
      for (const p of points) p.budget = null
    }
    applyWindows(id, points)
    return finishRun(category, points, ctx, batch, budget?.hits ?? 0)
  }

  dispose(): void {
    this.sandbox.dispose()
  }
}

function jsError(file: string, message: string): PlError {
  const m = /(\d+):(\d+)/.exec(message.split('\n').find((l) => l.includes(file)) ?? '')
  const ln = m ? Number(m[1]) : 1
  const col = m ? Number(m[2]) : 1
  return { pos_chain: [{ file, ln, col, pos: 0 }], error: message.split('\n')[0] }
}
