/**
 * Runs a debug request in a decode worker, in an engine of its own (so request scripts never
 * mix with the agent's): compile every script of the request, split or parse the data, run the
 * named script, and report each record, with an optional benchmark of the first one.
 */
import { FerryError, toPayload } from '../../errors.js'
import { PipelineEngine } from '../engine.js'
import { fromPl, toPl, type PlPoint } from '../lib/pl-point.js'
import { scriptName, type PlError } from '../scripts/compile.js'
import { compileLinear } from '../regex/linear.js'
import { localZone } from '../../shared/time-zone.js'
import { formatDuration } from '../../shared/duration.js'
import { decodeText, recordsOf } from './records.js'
import type { DebugResult, DebugTask, PlResult, PointResult } from './types.js'

const DEBUG_LIMITS = {
  memoryBytes: 64 * 1024 * 1024,
  stackBytes: 512 * 1024,
  batchTimeoutMs: 15_000,
  // A debug answer is JSON built whole in memory: far below what a write may produce.
  caps: { maxCreatedPoints: 10_000, maxOutputBytes: 16 * 1024 * 1024 },
}
const MAX_SCRIPT_BYTES = 1024 * 1024
let engine: Promise<PipelineEngine> | null = null

function loadAll(e: PipelineEngine, task: DebugTask): PlError[] {
  for (const id of e.names()) e.remove(id)
  const errors: PlError[] = []
  for (const [category, scripts] of Object.entries(task.pipeline ?? {})) {
    for (const [file, b64] of Object.entries(scripts ?? {})) {
      const source = Buffer.from(String(b64), 'base64').toString('utf8')
      if (source.length > MAX_SCRIPT_BYTES)
        throw new FerryError('invalidData', `script ${file} is over 1MiB`)
      const lang = file.endsWith('.js') ? 'js' : 'p'
      const name = scriptName(file)
      errors.push(
        ...e.load({ category, name, lang, source, file: lang === 'js' ? file : `${name}.p` }),
      )
    }
  }
  return errors
}

function pointResult(p: PlPoint): PointResult {
  const pt = fromPl(p)
  const fields: Record<string, unknown> = {}
  for (const f of pt.fields) fields[f.key] = typeof f.value === 'bigint' ? Number(f.value) : f.value
  const tags: Record<string, string> = {}
  for (const t of pt.tags) tags[t.key] = t.value
  const time = pt.time ?? 0n
  return {
    name: pt.name,
    tags,
    fields,
    time: Number(time / 1_000_000_000n),
    time_ns: Number(time % 1_000_000_000n),
    dropped: p.dropped,
  }
}

function result(p: PlPoint, file: string): PlResult {
  const r: PlResult = {
    point: pointResult(p),
    dropped: p.dropped,
    run_error:
      p.error === null ? null : { pos_chain: [{ file, ln: 0, col: 0, pos: 0 }], error: p.error },
  }
  if (p.created) r.create_point = p.created.map(pointResult)
  return r
}

function bench(e: PipelineEngine, task: DebugTask, first: PlPoint): string {
  let n = 0
  const started = process.hrtime.bigint()
  const budget = 200_000_000n
  while (n < 100_000 && process.hrtime.bigint() - started < budget) {
    // The record as it came in, before the measured run changed it.
    e.run(task.category, task.scriptName, [toPl(first.src)])
    n++
  }
  const per = Number((process.hrtime.bigint() - started) / BigInt(Math.max(1, n)))
  return `${String(n).padStart(8)}\t${String(per).padStart(10)} ns/op`
}

/** The task's records, split (multiline) and made points as the script would see them. */
function debugPoints(task: DebugTask): PlPoint[] {
  const texts = task.data.map((d) => decodeText(d, task.encode))
  return recordsOf(texts, {
    category: task.category,
    dataType: task.dataType,
    name: task.scriptName,
    now: task.now,
    start: compileLinear(task.multilineMatch ?? '^\\S'),
  })
}

/** Loads the task's scripts, then runs the one asked for over its records. */
async function debugRun(task: DebugTask, tz?: string): Promise<DebugResult> {
  engine ??= PipelineEngine.create({ ...DEBUG_LIMITS, timezone: tz || localZone() })
  const e = await engine
  const started = process.hrtime.bigint()
  const cost = () => formatDuration(process.hrtime.bigint() - started)
  const plErrors = loadAll(e, task)
  if (plErrors.length)
    return {
      ok: true,
      content: { cost: cost(), benchmark: '', pl_errors: plErrors, plresults: [] },
    }
  if (!e.has(task.category, task.scriptName))
    throw new FerryError(
      'invalidPipeline',
      `no script ${task.scriptName} in category ${task.category}`,
    )
  const points = debugPoints(task)
  if (points.length) e.run(task.category, task.scriptName, points)
  const took = cost()
  const file = `${task.scriptName}.p`
  const benchmark = task.benchmark && points.length ? bench(e, task, points[0]) : ''
  return {
    ok: true,
    content: {
      cost: took,
      benchmark,
      pl_errors: [],
      plresults: points.map((p) => result(p, file)),
    },
  }
}

export async function runDebug(task: DebugTask, tz?: string): Promise<DebugResult> {
  try {
    return await debugRun(task, tz)
  } catch (err) {
    if (err instanceof FerryError) return { ok: false, error: toPayload(err) }
    return { ok: false, error: { code: 'invalidData', message: (err as Error).message } }
  }
}
