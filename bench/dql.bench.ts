/**
 * DQL benchmark (`npm run bench:dql`): the twenty everyday queries of test/fixtures/dql-twenty.json
 * over BENCH_POINTS (10M) cpu points of 100 hosts in the last hour and BENCH_POINTS / 100 nginx
 * log rows, through /v1/query/raw of `ferry workspace`: per query one cold run, then
 * BENCH_RUNS (10) warm runs, printed as p50 and p99 with the series and rows answered. Queries
 * slower than 500 ms warm (p50) are marked.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { percentile } from './lib/load.js'
import { fill, prepare, startWorkspace } from './lib/workspace-fill.js'

const POINTS = Number(process.env.BENCH_POINTS ?? 10_000_000)
const RUNS = Number(process.env.BENCH_RUNS ?? 10)
const QUERIES = JSON.parse(
  fs.readFileSync(new URL('../../test/fixtures/dql-twenty.json', import.meta.url), 'utf8'),
) as string[]

interface Answer {
  content?: { series: { values: unknown[] }[] }[]
}

async function timeQuery(url: string, token: string, query: string) {
  const t0 = performance.now()
  const res = await fetch(`${url}/v1/query/raw?token=${token}`, {
    method: 'POST',
    body: JSON.stringify({ queries: [{ query }] }),
  })
  const body = (await res.json()) as Answer
  if (res.status !== 200) throw new Error(`${query}: ${JSON.stringify(body)}`)
  const series = body.content![0].series
  return {
    ms: performance.now() - t0,
    series: series.length,
    rows: series.reduce((n, s) => n + s.values.length, 0),
  }
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-dql-'))
  try {
    const { token, wsId } = await prepare(dir)
    await fill(dir, wsId, POINTS, Math.ceil(POINTS / 100))
    const ws = await startWorkspace(dir)
    try {
      console.log(`${RUNS} warm runs each, over ${POINTS.toLocaleString('en')} points`)
      for (const q of QUERIES) {
        const cold = await timeQuery(ws.url, token, q)
        const warm: number[] = []
        for (let i = 0; i < RUNS; i++) warm.push((await timeQuery(ws.url, token, q)).ms)
        const p50 = percentile(warm, 50)
        const slow = p50 > 500 ? '  SLOW (> 500 ms warm)' : ''
        console.log(
          `${q}\n  cold ${cold.ms.toFixed(0)} ms, p50 ${p50.toFixed(0)} ms, p99 ${percentile(warm, 99).toFixed(0)} ms (${cold.series} series, ${cold.rows} rows)${slow}`,
        )
      }
    } finally {
      await ws.stop()
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

void main()
