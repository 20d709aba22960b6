/**
 * `npm run bench:peers`: the host corpus (`corpus-hosts.ts`: cpu/mem/disk from 200 hosts, string
 * and bool fields, escapes) against Ferry (`sync` durability), vmagent (persistent queue, remote
 * write), VictoriaMetrics' `/write` (parse and store) and a bare node:http server, in one run:
 * 1000-point and 100-point line protocol bodies, gzip'd 1000-point bodies, and nginx lines
 * through the pipeline (Ferry only). Ferry and vmagent upload to a sink in its own process that
 * decodes every body; the load generator is wrk (its own process) when installed. Each cell is
 * a fresh process loaded for BENCH_SECONDS (default 12) over BENCH_CONNECTIONS (default 16)
 * keep-alive connections on BENCH_THREADS (default 2) wrk threads; BENCH_CASES and BENCH_TARGETS
 * (comma-separated names) run only those. Printed per cell: accepted and
 * delivered points/s, latency, peak total and anonymous RSS, CPU per accepted point; per case
 * the share of points the byte-level transcoder takes, and Ferry's HTTP thread's CPU per point.
 */
import fs from 'node:fs'
import { gzipSync } from 'node:zlib'
import { makeNginxBody } from './corpus.js'
import { makeHostBody, PEER_SAMPLES_PER_POINT } from './corpus-hosts.js'
import { fastShare } from './lib/fast-share.js'
import { sampleMemory } from './lib/memory-peaks.js'
import { startBaseline, startFerry, startVm, startVmagent, type Target } from './lib/peers.js'
import { printRatios, printTable, printTargets, type Cell } from './lib/peers-report.js'
import { cpuSecondsOf, loadTarget, WRK_BINARY } from './lib/wrk.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 12)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16)
const THREADS = Number(process.env.BENCH_THREADS ?? 2)
const DRAIN_LIMIT_MS = 30_000

interface Case {
  name: string
  body: Buffer
  points: number
  category: 'metric' | 'logging'
  headers: Record<string, string>
  ferryOnly?: boolean
  /** Bodies of other seeds, for the fast path share (metric cases). */
  other?: (seed: number) => Buffer
}

const TARGETS: [string, () => Promise<Target | null>][] = [
  ['ferry', startFerry],
  ['vmagent', () => startVmagent(PEER_SAMPLES_PER_POINT)],
  ['victoria-metrics', () => startVm(PEER_SAMPLES_PER_POINT)],
  ['node:http', startBaseline],
]

/** BENCH_TARGETS (comma-separated target names) runs only those targets. */
function targetSelected(name: string): boolean {
  const only = process.env.BENCH_TARGETS
  return !only || only.split(',').includes(name)
}

/** BENCH_CASES (comma-separated case names) runs only those cases. */
function selected(c: Case): boolean {
  const only = process.env.BENCH_CASES
  return !only || only.split(',').includes(c.name)
}

function cases(): Case[] {
  const lp = (n: number) => (seed: number) => Buffer.from(makeHostBody(n, seed))
  const gz = (seed: number) => gzipSync(lp(1000)(seed))
  const GZ = { 'Content-Encoding': 'gzip' }
  return [
    {
      name: '1000-pt LP',
      body: lp(1000)(1),
      points: 1000,
      category: 'metric',
      headers: {},
      other: lp(1000),
    },
    {
      name: '100-pt LP',
      body: lp(100)(1),
      points: 100,
      category: 'metric',
      headers: {},
      other: lp(100),
    },
    { name: '1000-pt gzip', body: gz(1), points: 1000, category: 'metric', headers: GZ, other: gz },
    {
      name: 'nginx pipeline',
      body: makeNginxBody(1000),
      points: 1000,
      category: 'logging',
      headers: {},
      ferryOnly: true,
    },
  ]
}

async function drained(t: Target, accepted: number): Promise<[number | null, number]> {
  const t0 = performance.now()
  let d = await t.delivered()
  while (d !== null && d < accepted && performance.now() - t0 < DRAIN_LIMIT_MS) {
    await new Promise((r) => setTimeout(r, 100))
    d = await t.delivered()
  }
  return [d, (performance.now() - t0) / 1000]
}

const usPer = (seconds: number, points: number) => ((seconds / points) * 1e6).toFixed(1)

/** One write first, unmeasured: script compilation and first-use set-up are not throughput. */
async function warmUp(t: Target, c: Case): Promise<void> {
  const url = t.url + t.writePath(c.category)
  const res = await fetch(url, { method: 'POST', body: c.body, headers: c.headers })
  await res.arrayBuffer()
}

async function measure(target: string, t: Target, c: Case): Promise<Cell> {
  await warmUp(t, c)
  // Peak anonymous RSS (heap and native memory, not mapped file pages such as LMDB's).
  const memory = sampleMemory(t.pid)
  const cpu0 = cpuSecondsOf(t.pid)
  // A process's first thread (its id is the pid) is node's main thread: Ferry's HTTP thread.
  const main0 = cpuSecondsOf(t.pid, t.pid)
  const shape = { seconds: SECONDS, connections: CONNECTIONS, threads: THREADS, headers: c.headers }
  const r = await loadTarget(t.url + t.writePath(c.category), c.body, shape)
  const accepted = r.ok * c.points
  const [delivered, drainS] = await drained(t, accepted)
  // CPU through the load and the drain: what it cost the target to accept and deliver.
  const cpu = cpuSecondsOf(t.pid) - cpu0
  const main = cpuSecondsOf(t.pid, t.pid) - main0
  const http = target === 'ferry' && accepted ? `HTTP thread ${usPer(main, accepted)} µs/pt; ` : ''
  return {
    target,
    caseName: c.name,
    acceptedPerS: accepted / r.seconds,
    deliveredPerS: delivered === null ? null : delivered / (r.seconds + drainS),
    deliveredShare: delivered === null || accepted === 0 ? null : delivered / accepted,
    p50: r.p50,
    p99: r.p99,
    rssMb: t.peakRssMb(),
    anonMb: memory.stop().anonMb,
    cpuUsPerPoint: accepted === 0 ? NaN : (cpu / accepted) * 1e6,
    non2xx: r.failed,
    extra: http + (await t.extra()),
  }
}

async function shares(all: Case[]): Promise<Map<string, number>> {
  const out = new Map<string, number>()
  for (const c of all) {
    if (!c.other) continue
    const encoding = c.headers['Content-Encoding'] ?? ''
    out.set(
      c.name,
      await fastShare({ category: c.category, encoding, points: c.points, body: c.other }),
    )
  }
  return out
}

async function main() {
  const all = cases().filter(selected)
  console.log(
    `corpus: ${all.map((c) => `${c.name} ${c.body.length} B`).join(', ')}; ` +
      `load: ${fs.existsSync(WRK_BINARY) ? 'wrk' : 'node:http (wrk not installed)'}, ` +
      `${CONNECTIONS} keep-alive connections on ${THREADS} threads, ${SECONDS}s per cell, a fresh process per cell`,
  )
  const fast = await shares(all)
  const cells: Cell[] = []
  for (const c of all) {
    for (const [name, start] of TARGETS) {
      if ((c.ferryOnly && name !== 'ferry') || !targetSelected(name)) continue
      const t = await start()
      if (!t) {
        console.log(`${c.name} / ${name}: skipped, binary not installed`)
        continue
      }
      try {
        cells.push(await measure(name, t, c))
        console.log(`${c.name} / ${name}: done`)
      } finally {
        await t.stop()
      }
    }
  }
  printTable(cells)
  printRatios(cells, 'ferry')
  printTargets(cells, fast)
}

main().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
