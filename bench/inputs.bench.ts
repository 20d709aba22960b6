/**
 * `npm run bench:inputs` (issue "Collectors"):
 * 1. CPU time per `collect` of each default host input (median of BENCH_RUNS, default 20),
 *    and all of them at their default intervals as a share of one core (target < 0.5%).
 * 2. `prom`: scrape + parse + map of a 10,000-series loopback endpoint for BENCH_SECONDS
 *    (default 5): ms per scrape and points/s.
 * 3. Log tailing: BENCH_LINES (default 200,000) nginx access lines from a file through the
 *    logging input and the nginx script to the upstream, beside the write path's rate for the
 *    same lines (target: tailing >= writing).
 */
import fs from 'node:fs'
import { hostCosts, promCost } from './lib/input-cost.js'
import { tailRate } from './lib/tail-rate.js'

const RUNS = Number(process.env.BENCH_RUNS ?? 20)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const LINES = Number(process.env.BENCH_LINES ?? 200_000)
const SERIES = 10_000
const fmt = (n: number) => Math.round(n).toLocaleString('en-US')

function ownPeakRssMb(): number {
  const status = fs.readFileSync('/proc/self/status', 'utf8')
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024
}

async function main() {
  const host = await hostCosts(RUNS)
  let share = 0
  for (const h of host) {
    const pct = (h.cpuMs / h.intervalMs) * 100
    share += pct
    console.log(
      `${h.name.padEnd(15)} ${h.cpuMs.toFixed(2).padStart(7)} ms CPU per collection, ` +
        `${String(h.points).padStart(4)} points, every ${h.intervalMs / 1000}s: ${pct.toFixed(4)}% of a core`,
    )
  }
  console.log(
    `all host inputs at default intervals: ${share.toFixed(3)}% of one core (target < 0.5%)`,
  )

  const p = await promCost(SERIES, SECONDS)
  console.log(
    `prom, ${fmt(SERIES)}-series endpoint (${fmt(p.bytes)} bytes): ${p.msPerScrape.toFixed(1)} ms per scrape, ` +
      `${fmt(p.points)} points, ${fmt(p.pointsPerSecond)} points/s`,
  )
  console.log(`bench process peak RSS ${ownPeakRssMb().toFixed(0)} MB`)

  const t = await tailRate(LINES)
  console.log(
    `logging input, nginx script, ${fmt(t.lines)} lines from a file: ${fmt(t.tailLps)} lines/s delivered`,
  )
  console.log(`HTTP write path, same lines: ${fmt(t.writeLps)} lines/s delivered`)
  console.log(
    `ratio tailing/write path: ${(t.tailLps / t.writeLps).toFixed(3)} (target >= 1); agent peak RSS ${t.peakRssMb.toFixed(0)} MB`,
  )
}

main().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
