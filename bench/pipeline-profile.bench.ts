/**
 * `npm run bench:pipeline-profile`: where the time of one nginx line goes in the pipeline, on
 * one thread. The bench's nginx lines (bench/corpus.ts) are parsed once; then, for
 * BENCH_SECONDS (default 5), batches of 1000 go through the shipped nginx script exactly as a
 * decode worker runs them (toPl, the engine, fromPl, the checks after the script), each phase
 * timed, and each library function timed over its whole batch (one call per batch: the script
 * is straight, so it runs once per batch in the sandbox and each call covers every point).
 * "sandbox and bridge" is the engine's time outside the library: QuickJS, the crossing, the
 * argument dump, the status mapping.
 *
 * Figures are wall time per line on this thread, and the process CPU per line beside them (so
 * a loaded machine shows as the gap between the two); CPU per line includes parsing the body.
 * The best round's CPU per line is the steadiest figure to compare two builds by on a shared
 * machine.
 */
import { readFileSync } from 'node:fs'
import { checkPoint } from '../src/decode/check/check.js'
import { optionsFor } from '../src/decode/check/options.js'
import { parseBody } from '../src/decode/parse-body.js'
import { PipelineEngine } from '../src/pipeline/engine.js'
import { fromPl, toPl } from '../src/pipeline/lib/pl-point.js'
import { LIBRARY } from '../src/pipeline/lib/registry.js'
import type { Point } from '../src/shared/point.js'
import { makeNginxBody } from './corpus.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const LINES = 1000
/** Batches per round; the best round is the figure least disturbed by other work. */
const ROUND = 10
const NAMES = Object.keys(LIBRARY)
const spent = new Map<string, number>()

function add(phase: string, ms: number): void {
  spent.set(phase, (spent.get(phase) ?? 0) + ms)
}

/** Times every host call of the engine by library function (instrumentation only). */
function instrument(engine: PipelineEngine): void {
  const e = engine as unknown as { host: (fn: number, args: unknown[], i: number) => unknown }
  const host = e.host.bind(engine)
  e.host = (fn, args, i) => {
    const t = performance.now()
    try {
      return host(fn, args, i)
    } finally {
      add(`fn ${NAMES[fn]}`, performance.now() - t)
    }
  }
}

function timed<T>(phase: string, f: () => T): T {
  const t = performance.now()
  const r = f()
  add(phase, performance.now() - t)
  return r
}

function batch(engine: PipelineEngine, points: Point[]): void {
  const pls = timed('toPl', () => points.map(toPl))
  const r = timed('engine.run', () => engine.run('logging', 'nginx', pls))
  if (r.errors) throw new Error(`nginx script failed: ${r.firstError}`)
  const out = timed('fromPl', () => pls.map(fromPl))
  const opts = optionsFor('logging')
  timed('checks after the script', () => out.forEach((p) => checkPoint(p, opts)))
}

function report(batches: number, cpuUs: number): void {
  const lines = batches * LINES
  const perLine = (ms: number) => ((ms * 1000) / lines).toFixed(2).padStart(7)
  const fns = [...spent].filter(([k]) => k.startsWith('fn '))
  const inFns = fns.reduce((a, [, v]) => a + v, 0)
  add('sandbox and bridge', spent.get('engine.run')! - inFns)
  const total = ['toPl', 'engine.run', 'fromPl', 'checks after the script']
    .map((k) => spent.get(k)!)
    .reduce((a, b) => a + b, 0)
  console.log(`${lines} lines; µs per line (wall, this thread), share of the pipeline's time`)
  const rows = [...spent].filter(([k]) => k !== 'engine.run').sort((a, b) => b[1] - a[1])
  for (const [k, v] of rows)
    console.log(`  ${k.padEnd(26)} ${perLine(v)} µs  ${((100 * v) / total).toFixed(1)}%`)
  console.log(`  ${'total'.padEnd(26)} ${perLine(total)} µs`)
  console.log(`  process CPU per line       ${(cpuUs / lines).toFixed(2).padStart(7)} µs`)
}

async function main(): Promise<void> {
  // Run from the repository's root, as npm runs it.
  const source = readFileSync('conf.d/pipeline/logging/nginx.js', 'utf8')
  const engine = await PipelineEngine.create({
    memoryBytes: 64 << 20,
    stackBytes: 512 << 10,
    batchTimeoutMs: 10_000,
    timezone: 'UTC',
  })
  const errors = engine.load({
    category: 'logging',
    name: 'nginx',
    lang: 'js',
    source,
    file: 'nginx.js',
  })
  if (errors.length) throw new Error(errors[0].error)
  const body = makeNginxBody(LINES)
  const parse = () => parseBody('text/plain', body).points
  batch(engine, parse()) // warm-up: the prelude, the script, the groks
  spent.clear()
  instrument(engine)
  const started = performance.now()
  const cpu = process.cpuUsage()
  let batches = 0
  let best = Infinity
  while (performance.now() - started < SECONDS * 1000) {
    const round = process.cpuUsage()
    for (let i = 0; i < ROUND; i++) batch(engine, parse())
    const r = process.cpuUsage(round)
    best = Math.min(best, (r.user + r.system) / (ROUND * LINES))
    batches += ROUND
  }
  const used = process.cpuUsage(cpu)
  report(batches, used.user + used.system)
  console.log(
    `  best round's CPU per line   ${best.toFixed(2).padStart(7)} µs (${ROUND} batches a round)`,
  )
  engine.dispose()
}

main().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
