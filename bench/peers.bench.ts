/**
 * `npm run bench:peers`: the same seeded corpus against Ferry (`sync` durability, uploading to
 * a counting sink), vmagent (persistent queue, remote write to a decoding sink),
 * VictoriaMetrics' `/write` (parse and store) and a bare node:http server reading the body, in
 * one run: 1000-point and 100-point line protocol bodies, gzip'd 1000-point bodies, and nginx
 * lines through the pipeline (Ferry only). Each cell is a fresh process loaded for
 * BENCH_SECONDS (default 10) over BENCH_CONNECTIONS (default 8) keep-alive connections; the
 * load generator shares the machine with the target, the same for every target.
 */
import { gzipSync } from 'node:zlib'
import { makeBody, makeNginxBody } from './corpus.js'
import { anonRssOf } from './lib/go-peer.js'
import { percentile, runLoad } from './lib/load.js'
import { startBaseline, startFerry, startVm, startVmagent, type Target } from './lib/peers.js'
import { printRatios, printTable, printTargets, type Cell } from './lib/peers-report.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8)
const FIELDS = 10
const DRAIN_LIMIT_MS = 30_000

interface Case {
  name: string
  body: Buffer
  points: number
  category: 'metric' | 'logging'
  headers: Record<string, string>
  ferryOnly?: boolean
}

const TARGETS: [string, () => Promise<Target | null>][] = [
  ['ferry', startFerry],
  ['vmagent', () => startVmagent(FIELDS)],
  ['victoria-metrics', () => startVm(FIELDS)],
  ['node:http', startBaseline],
]

function cases(): Case[] {
  const lp = (n: number) => Buffer.from(makeBody(n))
  const big = lp(1000)
  return [
    { name: '1000-pt LP', body: big, points: 1000, category: 'metric', headers: {} },
    { name: '100-pt LP', body: lp(100), points: 100, category: 'metric', headers: {} },
    {
      name: '1000-pt gzip',
      body: gzipSync(big),
      points: 1000,
      category: 'metric',
      headers: { 'Content-Encoding': 'gzip' },
    },
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

/** Peak anonymous RSS (heap and native memory, not mapped file pages such as LMDB's). */
function sampleAnon(pid: number | undefined): () => number {
  let peak = 0
  const timer = setInterval(() => (peak = Math.max(peak, anonRssOf(pid))), 200)
  return () => {
    clearInterval(timer)
    return Math.max(peak, anonRssOf(pid))
  }
}

async function measure(target: string, t: Target, c: Case): Promise<Cell> {
  const anon = sampleAnon(t.pid)
  const r = await runLoad(t.url + t.writePath(c.category), c.body, SECONDS, CONNECTIONS, c.headers)
  const accepted = r.ok * c.points
  const [delivered, drainS] = await drained(t, accepted)
  return {
    target,
    caseName: c.name,
    acceptedPerS: accepted / r.seconds,
    deliveredPerS: delivered === null ? null : delivered / (r.seconds + drainS),
    deliveredShare: delivered === null || accepted === 0 ? null : delivered / accepted,
    p50: percentile(r.latenciesMs, 50),
    p99: percentile(r.latenciesMs, 99),
    rssMb: t.peakRssMb(),
    anonMb: anon(),
    non2xx: r.failed,
    extra: await t.extra(),
  }
}

async function main() {
  const all = cases()
  console.log(
    `corpus: ${all.map((c) => `${c.name} ${c.body.length} B`).join(', ')}; ` +
      `${CONNECTIONS} keep-alive connections, ${SECONDS}s per cell, a fresh process per cell`,
  )
  const cells: Cell[] = []
  for (const c of all) {
    for (const [name, start] of TARGETS) {
      if (c.ferryOnly && name !== 'ferry') continue
      const t = await start()
      if (!t) {
        console.log(`${c.name} / ${name}: skipped, binary not installed`)
        continue
      }
      try {
        const cell = await measure(name, t, c)
        cells.push(cell)
        console.log(`${c.name} / ${name}: done`)
      } finally {
        await t.stop()
      }
    }
  }
  printTable(cells)
  printRatios(cells, 'ferry')
  printTargets(cells)
}

main().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
