/**
 * Workspace benchmark (`npm run bench:workspace`):
 * 1. ingest (bench/lib/workspace-ingest.ts): gzip'd protobuf bodies as the agent uploads them
 *    (3,000 points, ~1 MiB raw): the single-thread decode rate of one body, then 4 connections
 *    for BENCH_SECONDS against `ferry workspace` (a child process) with 1 (the default) and 2
 *    decode workers, then the same points as line protocol into VictoriaMetrics (when installed)
 *    and the same bodies into a bare node:http server, printed as ratios.
 * 2. query: `M::cpu:(avg(usage_idle)) [1h::1m] BY host` over BENCH_QUERY_POINTS (10M) stored
 *    points of 100 hosts in the last hour (bench/lib/workspace-fill.ts), through /v1/query/raw:
 *    cold, then the median of 5.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { percentile } from './lib/load.js'
import { fill, prepare, startWorkspace } from './lib/workspace-fill.js'
import { ingestRuns } from './lib/workspace-ingest.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const QUERY_POINTS = Number(process.env.BENCH_QUERY_POINTS ?? 10_000_000)
async function queryLatency(dir: string, token: string): Promise<void> {
  const ws = await startWorkspace(dir)
  const q = 'M::cpu:(avg(usage_idle)) [1h::1m] BY host'
  const once = async () => {
    const t0 = performance.now()
    const res = await fetch(`${ws.url}/v1/query/raw?token=${token}`, {
      method: 'POST',
      body: JSON.stringify({ queries: [{ query: q }] }),
    })
    const body = (await res.json()) as { content: { series: { values: unknown[] }[] }[] }
    if (res.status !== 200) throw new Error(JSON.stringify(body))
    return { ms: performance.now() - t0, series: body.content[0].series }
  }
  try {
    const cold = await once()
    const warm: number[] = []
    for (let i = 0; i < 5; i++) warm.push((await once()).ms)
    const rows = cold.series.reduce((n, s) => n + s.values.length, 0)
    console.log(
      `query ${q} over ${QUERY_POINTS.toLocaleString('en')} points: cold ${cold.ms.toFixed(0)} ms, warm median ${percentile(warm, 50).toFixed(0)} ms (${cold.series.length} series, ${rows} buckets)`,
    )
  } finally {
    await ws.stop()
  }
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-ws-'))
  try {
    const { token, wsId } = await prepare(dir)
    await ingestRuns(dir, token, SECONDS, startWorkspace)
    await fill(dir, wsId, QUERY_POINTS)
    await queryLatency(dir, token)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

void main()
