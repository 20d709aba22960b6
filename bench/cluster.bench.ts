/**
 * The workspace past one machine (`npm run bench:cluster`), everything in one run on this host:
 * 1. stored points/s from agents' uploads (bench/lib/cluster-load.ts: protobuf + gzip bodies of
 *    3,000 points, each with its own package id, BENCH_CONNECTIONS per instance for
 *    BENCH_SECONDS) into 1 and 2 `ferry workspace` instances over one clickhouse-server child,
 *    into one instance on DuckDB, and the same points as line protocol into VictoriaMetrics'
 *    `/write`; CPU per 1,000 points (every thread of the workspace processes, and of
 *    clickhouse-server apart) and peak RSS of each process. A workspace answers 200 only once a
 *    body is stored, so acknowledged is stored; on ClickHouse the rows are counted too.
 * 2. query latency through an instance's /v1/query/raw, median of 20 warm runs, over
 *    BENCH_POINTS cpu points (default 10M) of 100 hosts in the last hour and a tenth as many
 *    log lines (bench/lib/cluster-queries.ts).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Child } from './lib/child.js'
import { uploadLoad } from './lib/cluster-load.js'
import { fillClickHouse, queryP50, QUERIES } from './lib/cluster-queries.js'
import {
  clickhouseInstances,
  duckdbInstance,
  PREFIX,
  startBenchClickHouse,
  usage,
  type ClickHouse,
} from './lib/cluster-targets.js'
import { percentile, type LoadResult } from './lib/load.js'
import { victoriaRow } from './lib/throughput.js'
import { prepare } from './lib/workspace-fill.js'
import { bodies, FIELDS, POINTS } from './lib/workspace-ingest.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20)
const QUERY_POINTS = Number(process.env.BENCH_POINTS ?? 10_000_000)
const CONNS = Number(process.env.BENCH_CONNECTIONS ?? 4)
const fmt = (n: number) => Math.round(n).toLocaleString('en')
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-cluster-'))

interface Run {
  rate: number
  line: string
}

function loadText(r: LoadResult): string {
  const p = (q: number) => percentile(r.latenciesMs, q).toFixed(0)
  return `${r.ok} bodies acknowledged, ${r.failed} failed ${JSON.stringify(r.statuses)}, p50 ${p(50)} ms, p99 ${p(99)} ms`
}

const cpuOf = (children: Child[]) => children.reduce((s, c) => s + usage(c.proc.pid).cpuMs, 0)
const rssOf = (children: Child[]) => children.map((c) => c.peakRssMb().toFixed(0)).join(' / ')

async function clickhouseRun(ch: ClickHouse, dirs: string[], body: Buffer): Promise<Run> {
  const table = `\`${PREFIX}_w_${ch.wsId.replace(/^wksp_/, '')}\`.\`M::http_server\``
  const count = async () => Number(await ch.one(`SELECT count() FROM ${table}`).catch(() => '0'))
  const instances = await clickhouseInstances(ch, dirs)
  try {
    const before = await count()
    const [cpu0, chCpu0] = [cpuOf(instances), usage(ch.server.proc.pid).cpuMs]
    const urls = instances.map((i) => `${i.url}/v1/write/metric?token=${ch.token}`)
    const r = await uploadLoad(urls, body, SECONDS, CONNS, `ch${dirs.length}-${Date.now()}`)
    const stored = (await count()) - before
    const kPoints = stored / 1000
    const ferryCpu = (cpuOf(instances) - cpu0) / kPoints
    const chCpu = (usage(ch.server.proc.pid).cpuMs - chCpu0) / kPoints
    const n = dirs.length
    const line = `clickhouse, ${n} workspace instance${n > 1 ? 's' : ''}: ${fmt(stored / r.seconds)} points/s stored (${fmt(stored)} rows counted; ${loadText(r)}), CPU per 1,000 points ${ferryCpu.toFixed(1)} ms workspace + ${chCpu.toFixed(1)} ms clickhouse-server, peak RSS ${rssOf(instances)} MB, clickhouse-server ${usage(ch.server.proc.pid).rssMb.toFixed(0)} MB`
    return { rate: stored / r.seconds, line }
  } finally {
    await Promise.all(instances.map((i) => i.stop()))
  }
}

async function duckdbRun(body: Buffer): Promise<Run> {
  const dir = tmp()
  try {
    const { token } = await prepare(dir)
    const ws = await duckdbInstance(dir)
    try {
      const cpu0 = cpuOf([ws])
      const r = await uploadLoad(
        [`${ws.url}/v1/write/metric?token=${token}`],
        body,
        SECONDS,
        CONNS,
        `duck-${Date.now()}`,
      )
      const stored = r.ok * POINTS
      const cpu = (cpuOf([ws]) - cpu0) / (stored / 1000)
      const line = `duckdb, 1 workspace: ${fmt(stored / r.seconds)} points/s stored (${loadText(r)}), CPU per 1,000 points ${cpu.toFixed(1)} ms, peak RSS ${rssOf([ws])} MB`
      return { rate: stored / r.seconds, line }
    } finally {
      await ws.stop()
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

async function queries(ch: ClickHouse, dir: string): Promise<void> {
  const [ws] = await clickhouseInstances(ch, [dir])
  try {
    const s = await fillClickHouse(ch, ws.url, QUERY_POINTS)
    console.log(
      `query data: ${fmt(QUERY_POINTS)} cpu points and ${fmt(QUERY_POINTS / 10)} log lines made by clickhouse in ${s.toFixed(1)} s`,
    )
    for (const [name, q] of QUERIES) {
      const ms = await queryP50(ws.url, ch.token, q).catch((e: Error) => {
        console.log(`query ${name} failed: ${e.message}`)
        return NaN
      })
      console.log(
        `query ${name}, p50 of 20 over ${fmt(QUERY_POINTS)} points: ${ms.toFixed(0)} ms   ${q}`,
      )
    }
    console.log(`workspace instance peak RSS after the queries: ${rssOf([ws])} MB`)
  } finally {
    await ws.stop()
  }
}

async function main(): Promise<void> {
  const { pb, lp } = bodies()
  const ch = await startBenchClickHouse()
  const dirs = [tmp(), tmp()]
  try {
    const one = await clickhouseRun(ch, dirs.slice(0, 1), pb)
    console.log(one.line)
    const two = await clickhouseRun(ch, dirs, pb)
    console.log(two.line)
    console.log((await duckdbRun(pb)).line)
    const vm = await victoriaRow(lp, POINTS, FIELDS, SECONDS, CONNS)
    if (!vm) console.log('victoria-metrics: not installed, row skipped')
    else
      console.log(
        `victoria-metrics /write, the same points as line protocol: ${fmt(vm.storedPerS)} points/s stored, peak RSS ${vm.rssMb.toFixed(0)} MB; ratio clickhouse 2 instances / victoria-metrics ${(two.rate / vm.storedPerS).toFixed(2)}`,
      )
    await queries(ch, dirs[0])
  } finally {
    await ch.stop()
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
  }
}

void main()
