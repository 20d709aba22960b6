/**
 * `npm run bench:system`: the default system (`npm start`: the agent with its embedded
 * workspace) as one child process, end to end. BENCH_MODE picks the runs (default all):
 * - throughput: 1000-point corpus bodies on BENCH_CONNECTIONS (8) for BENCH_SECONDS (30):
 *   accepted/s, stored/s within the run, the drain time after it, peak RSS (with the peaks of
 *   its anonymous memory and of the LMDB pages resident beside the file's size); then the same
 *   bodies into VictoriaMetrics (skipped when not installed), printed as ratios.
 * - rate: BENCH_RATE (40,000) points/s for BENCH_RATE_SECONDS (60), and the share stored within
 *   the run plus 2 s.
 * Then the two checks of the default system: peak RSS of every run at most 600 MB, and at least
 * 99% of the fixed rate stored within the run plus 2 s.
 * - tenants: workspace A sends poison and over-quota load on 4 connections while B writes
 *   under its quota; B's share of 200 answers.
 * - kill9: the agent killed with SIGKILL BENCH_KILLS (5) times while a client uploads;
 *   acknowledged, stored, lost and duplicated points.
 * Figures on a shared 2-core machine are noisy: compare ratios from the same run.
 */
import { makeHostBody, PEER_SAMPLES_PER_POINT } from './corpus-hosts.js'
import { kill9Run } from './lib/kill9.js'
import { memoryText } from './lib/memory-peaks.js'
import { pacedRow } from './lib/paced.js'
import { tenantsRun } from './lib/tenants.js'
import { systemRow, victoriaRow, type Row } from './lib/throughput.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8)
const KILLS = Number(process.env.BENCH_KILLS ?? 5)
const MODE = process.env.BENCH_MODE ?? 'all'
/** BENCH_MODE: `all`, or a comma-separated list of runs. */
const runs = (m: string) => MODE === 'all' || MODE.split(',').includes(m)
const RATE = Number(process.env.BENCH_RATE ?? 40_000)
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 60)
const GRACE_MS = 2000
const RSS_LIMIT_MB = 600
const STORED_TARGET = 0.99
/** Peak RSS of each run of the default system, for the checks. */
const peaks: number[] = []
const POINTS = 1000
const FIELDS = PEER_SAMPLES_PER_POINT
const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
const pct = (n: number) => `${(n * 100).toFixed(1)}%`

const line = (name: string, r: Row) =>
  `${name}: accepted ${fmt(r.acceptedPerS)} points/s, stored ${fmt(r.storedPerS)} points/s within the run (${pct(r.storedShare)} of accepted), drained ${r.drainS.toFixed(1)} s after, peak RSS ${r.rssMb.toFixed(0)} MB (${memoryText(r.memory)}), non-2xx ${r.non2xx}`

async function throughput(body: Buffer) {
  console.log(
    `throughput: ${POINTS}-point bodies (${body.length} bytes), ${CONNECTIONS} connections, ${SECONDS}s`,
  )
  const sys = await systemRow(body, POINTS, SECONDS, CONNECTIONS)
  peaks.push(sys.rssMb)
  console.log(line('ferry (agent + embedded workspace)', sys))
  const vm = await victoriaRow(body, POINTS, FIELDS, SECONDS, CONNECTIONS)
  if (!vm) return console.log('victoria-metrics: not installed, row skipped')
  console.log(line('victoria-metrics /write', vm))
  console.log(
    `ratio ferry/victoria-metrics: accepted ${(sys.acceptedPerS / vm.acceptedPerS).toFixed(2)}, stored ${(sys.storedPerS / vm.storedPerS).toFixed(2)}, peak RSS ${(sys.rssMb / vm.rssMb).toFixed(2)}`,
  )
}

async function rate(body: Buffer): Promise<number> {
  const r = await pacedRow(body, POINTS, RATE, RATE_SECONDS, GRACE_MS)
  peaks.push(r.rssMb)
  console.log(
    `rate ${fmt(RATE)} points/s for ${RATE_SECONDS}s: sent ${fmt(r.sent)}, accepted ${fmt(r.accepted)}, stored ${pct(r.storedShare)} of accepted within the run plus ${GRACE_MS / 1000} s, peak RSS ${r.rssMb.toFixed(0)} MB (${memoryText(r.memory)})`,
  )
  return r.storedShare
}

function checks(stored: number | null) {
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met')
  if (peaks.length) {
    const peak = Math.max(...peaks)
    console.log(
      `check: peak RSS <= ${RSS_LIMIT_MB} MB (throughput and rate runs)   ${verdict(peak <= RSS_LIMIT_MB)} (${peak.toFixed(0)} MB)`,
    )
  }
  if (stored !== null) {
    console.log(
      `check: ${fmt(RATE)} points/s for ${RATE_SECONDS}s stored >= 99% within the run + 2 s   ${verdict(stored >= STORED_TARGET)} (${pct(stored)})`,
    )
  }
}

async function tenants(body: Buffer) {
  const t = await tenantsRun(body, POINTS, Math.min(SECONDS, 20))
  const share = t.b.ok / Math.max(1, t.b.ok + t.b.failed)
  console.log(
    `tenants (quota ${fmt(t.quota)} points/s each): B ${pct(share)} 200 (${JSON.stringify(t.b.statuses)}); A ${JSON.stringify(t.a.statuses)}`,
  )
}

async function kill9() {
  const k = await kill9Run(100, KILLS, 3000)
  console.log(
    `kill -9 x${k.kills}: sent ${fmt(k.sent)}, acknowledged ${fmt(k.acknowledged)}, stored ${fmt(k.stored)}, lost ${fmt(k.lost)}, duplicated ${fmt(k.duplicated)} (unacknowledged but stored ${fmt(k.unacknowledgedStored)})`,
  )
}

async function mainBench() {
  const body = Buffer.from(makeHostBody(POINTS))
  if (runs('throughput')) await throughput(body)
  const stored = runs('rate') ? await rate(body) : null
  checks(stored)
  if (runs('tenants')) await tenants(body)
  if (runs('kill9')) await kill9()
}

mainBench().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
