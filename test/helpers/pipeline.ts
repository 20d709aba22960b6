/** Pipeline test helpers: an engine with test limits, and running a script on log lines. */
import { PipelineEngine } from '../../src/pipeline/engine.js'
import type { PipelineWorkerConfig } from '../../src/pipeline/worker-host.js'
import { fromPl, toPl } from '../../src/pipeline/lib/pl-point.js'
import { compilePpl } from '../../src/pipeline/ppl/compile.js'
import type { PlSyntaxError } from '../../src/pipeline/ppl/lexer.js'
import { Kind, type Point } from '../../src/shared/point.js'

export const TZ = 'Asia/Shanghai'

export function testEngine(
  limits: Partial<{ memoryBytes: number; batchTimeoutMs: number; stackBytes: number }> = {},
) {
  return PipelineEngine.create({
    memoryBytes: 32 << 20,
    stackBytes: 256 << 10,
    batchTimeoutMs: 1000,
    timezone: TZ,
    ...limits,
  })
}

/** Decode-worker pipeline settings over a script folder, with test limits. */
export function workerPipeline(dir: string, batchTimeoutMs = 1000): PipelineWorkerConfig {
  return {
    dir,
    timezone: 'UTC',
    maxBatch: 1000,
    defaults: {},
    memoryBytes: 32 << 20,
    stackBytes: 256 << 10,
    batchTimeoutMs,
  }
}

/** Runs `script` of `category` on one log point per message; returns the points and stats. */
export function runOn(
  e: PipelineEngine,
  script: string,
  messages: string[],
  o: { category?: string; name?: string; pointMode?: boolean } = {},
) {
  const pls = messages.map((m) =>
    toPl({
      name: o.name ?? script,
      tags: [],
      fields: [{ key: 'message', kind: Kind.STRING, value: m }],
      time: 1_000_000_000n,
      warns: null,
    }),
  )
  const stats = e.run(o.category ?? 'logging', script, pls, o.pointMode ?? false)
  return { pls, points: pls.map(fromPl), stats }
}

/** A point's tags and fields as one plain object (bigints as numbers). */
export function kv(p: Point): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const t of p.tags) out[t.key] = t.value
  for (const f of p.fields) out[f.key] = typeof f.value === 'bigint' ? Number(f.value) : f.value
  return out
}

/** Loads a Platypus script as logging script `name` (failing on compile errors) and runs it. */
export function runPpl(
  e: PipelineEngine,
  name: string,
  source: string,
  messages: string[],
  o: { name?: string; pointMode?: boolean } = {},
) {
  const errors = e.load({ category: 'logging', name, lang: 'p', source, file: `${name}.p` })
  if (errors.length) throw new Error(`${name}.p: ${JSON.stringify(errors)}`)
  return runOn(e, name, messages, o)
}

/** A Platypus compile error as [message, line, column, offset]; null when it compiles. */
export function pplError(src: string): [string, number, number, number] | null {
  try {
    compilePpl(src)
    return null
  } catch (e) {
    const s = e as PlSyntaxError
    return [s.message, s.ln, s.col, s.pos]
  }
}
