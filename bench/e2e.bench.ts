/**
 * `npm run bench:e2e`: write, buffer (LMDB) and upload, end to end (issue "Durable disk buffer").
 * 1000-point line protocol bodies for BENCH_SECONDS (default 15) against the compiled agent
 * with `sync` durability, upstream a local sink that counts points; then the same with `async`
 * as a ratio; then an outage (upstream answering 503 for half the run) and the drain rate after.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { makeHostBody } from './corpus-hosts.js'
import { startChild } from './lib/child.js'
import { CountSink } from './lib/count-sink.js'
import { percentile, runLoad } from './lib/load.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8)
const POINTS = 1000
const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
const main = new URL('../src/main.js', import.meta.url).pathname

async function until(cond: () => boolean, ms: number): Promise<number> {
  const t0 = performance.now()
  while (!cond() && performance.now() - t0 < ms) await new Promise((r) => setTimeout(r, 50))
  return (performance.now() - t0) / 1000
}

async function run(durability: string, body: Buffer, outage: boolean) {
  const sink = new CountSink()
  const url = await sink.start()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-'))
  const env = {
    ENV_HTTP_LISTEN: '127.0.0.1:0',
    ENV_DATA_DIR: dataDir,
    ENV_DATAWAY: url,
    ENV_DATAWAY_WAL_DURABILITY: durability,
    ENV_DECODE_MAX_QUEUE: '1024',
    ENV_DATAWAY_RETRY_MAX: '1s',
  }
  const agent = await startChild([main, 'run'], env, /"event":"agent_started","listen":"([^"]+)"/)
  try {
    if (outage) {
      sink.down = true
      setTimeout(() => (sink.down = false), (SECONDS * 1000) / 2)
    }
    const r = await runLoad(`${agent.url}/v1/write/metric`, body, SECONDS, CONNECTIONS)
    const accepted = r.ok * POINTS
    const backlog = accepted - sink.points
    const drain = await until(() => sink.points >= accepted, 120_000)
    return {
      r,
      accepted,
      pps: accepted / r.seconds,
      delivered: sink.points / (r.seconds + drain),
      backlog,
      drain,
      rss: agent.peakRssMb(),
    }
  } finally {
    await agent.stop()
    await sink.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

async function mainBench() {
  const body = Buffer.from(makeHostBody(POINTS))
  console.log(
    `body: ${POINTS} points, ${body.length} bytes; ${CONNECTIONS} connections, ${SECONDS}s per run`,
  )
  const line = (name: string, x: Awaited<ReturnType<typeof run>>) =>
    `${name}: accepted ${fmt(x.pps)} points/s, delivered ${fmt(x.delivered)} points/s, p99 write ${percentile(x.r.latenciesMs, 99).toFixed(1)} ms, peak RSS ${x.rss.toFixed(0)} MB, non-2xx ${x.r.failed}`
  const sync = await run('sync', body, false)
  console.log(line('sync', sync))
  const async_ = await run('async', body, false)
  console.log(line('async', async_))
  console.log(`ratio sync/async accepted: ${(sync.pps / async_.pps).toFixed(3)}`)
  const o = await run('sync', body, true)
  console.log(line('outage (upstream 503 for the first half)', o))
  const ingest = o.pps
  const drainRate = o.backlog / Math.max(o.drain, 0.001)
  console.log(
    `outage backlog after the run ${fmt(o.backlog)} points, drained in ${o.drain.toFixed(1)} s: ${fmt(drainRate)} points/s (${(drainRate / ingest).toFixed(1)}x the ingest rate)`,
  )
}

mainBench().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
