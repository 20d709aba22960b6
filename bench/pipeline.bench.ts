/**
 * `npm run bench:pipeline`: log lines through the write path with a pipeline script, beside
 * the same load with the pipeline off (`source=-`), as a ratio. Two scripts:
 * - nginx: the shipped nginx script (conf.d/pipeline/logging/nginx.js: five groks,
 *   user_agent, casts, grouping, default_time) over nginx access lines;
 * - jsonapp: a Platypus script using gjson, sql_cover and the pt_kvs_* API (a loop over the
 *   keys, so it runs per point) over JSON application logs.
 *
 * 1. Per worker: the decode task (parse, check, pipeline, encode) on the calling thread.
 * 2. The agent (compiled, its own process, one decode worker and sandbox per core) under
 *    keep-alive load of 1000-line bodies for BENCH_SECONDS (default 10) with `?dry`, so the
 *    figure is decode and pipeline, not the disk buffer.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { processTask } from '../src/ingest/process.js'
import { plainTask } from '../src/ingest/protocol.js'
import { PipelineHost } from '../src/pipeline/worker-host.js'
import { makeJsonLogBody, makeNginxBody } from './corpus.js'
import { startChild } from './lib/child.js'
import { percentile, runLoad } from './lib/load.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8)
const LINES = 1000
// Throughput, not the limit: a run of 1000 points may take over the agent's default 1s on a
// loaded machine, and a batch stopped by the limit would measure nothing.
const BATCH_TIMEOUT_MS = 10_000
const here = (p: string) => new URL(p, import.meta.url).pathname

const JSONAPP = `gjson(_, "level", "status")
gjson(_, "svc.name", "app")
gjson(_, "db.statement", "sql")
sql_cover(sql)
gjson(_, "user.id", "user_id")
for k in pt_kvs_keys(tags=false) {
  if k == "user_id" {
    pt_kvs_set("uid", pt_kvs_get(k), as_tag=true)
  }
}
pt_kvs_del("user_id")
`

/** The scripts directory: the shipped nginx script and the jsonapp script. */
function scriptsDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-pl-'))
  mkdirSync(path.join(dir, 'logging'))
  copyFileSync(here('../../conf.d/pipeline/logging/nginx.js'), path.join(dir, 'logging/nginx.js'))
  writeFileSync(path.join(dir, 'logging/jsonapp.p'), JSONAPP)
  return dir
}

async function perWorker(dir: string, body: Buffer, pipeline: boolean): Promise<number> {
  const host = new PipelineHost({
    dir,
    memoryBytes: 64 << 20,
    stackBytes: 512 << 10,
    batchTimeoutMs: BATCH_TIMEOUT_MS,
    timezone: 'UTC',
    maxBatch: 1000,
    defaults: {},
  })
  const task = () =>
    plainTask(body, 'logging', {
      extraTags: [['host', 'bench']],
      pipeline: { version: 1, source: pipeline ? null : '-' },
    })
  await processTask(task(), host) // warm-up: loads the scripts, compiles the groks
  const started = performance.now()
  let n = 0
  while (performance.now() - started < 3000) {
    const r = await processTask(task(), host)
    if (!r.ok) throw new Error(r.error.message)
    if (pipeline && r.pipeline[0]?.errors) throw new Error(String(r.pipeline[0].firstError))
    n++
  }
  return (n * LINES) / ((performance.now() - started) / 1000)
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US')

const SCENARIOS = [
  { name: 'nginx', what: 'nginx access lines', body: makeNginxBody(LINES) },
  { name: 'jsonapp', what: 'JSON log lines', body: makeJsonLogBody(LINES) },
]

async function workers(dir: string): Promise<void> {
  for (const s of SCENARIOS) {
    console.log(`${s.name} body: ${LINES} ${s.what} as logging points, ${s.body.length} bytes`)
    const on = await perWorker(dir, s.body, true)
    const off = await perWorker(dir, s.body, false)
    console.log(`per worker, ${s.name} script: ${fmt(on)} lines/s (decode + script + encode)`)
    console.log(
      `per worker, pipeline off: ${fmt(off)} lines/s; ratio on/off ${(on / off).toFixed(3)}`,
    )
  }
}

async function agent(dir: string): Promise<void> {
  const child = await startChild(
    [here('../src/main.js'), 'run'],
    {
      ENV_HTTP_LISTEN: '127.0.0.1:0',
      ENV_WORKSPACE_EMBEDDED: 'false',
      ENV_LOG_LEVEL: 'info',
      ENV_DECODE_MAX_QUEUE: '1024',
      ENV_PIPELINE_DIR: dir,
      ENV_PIPELINE_TIMEZONE: 'UTC',
      ENV_PIPELINE_BATCH_TIMEOUT: `${BATCH_TIMEOUT_MS}ms`,
    },
    /"event":"agent_started","listen":"([^"]+)"/,
  )
  try {
    const run = async (body: Buffer, q: string) => {
      const r = await runLoad(`${child.url}/v1/write/logging?dry${q}`, body, SECONDS, CONNECTIONS)
      return { ...r, lps: (r.ok * LINES) / r.seconds }
    }
    const line = (name: string, r: Awaited<ReturnType<typeof run>>) =>
      `${name}: ${fmt(r.lps)} lines/s, p50 ${percentile(r.latenciesMs, 50).toFixed(1)} ms, p99 ${percentile(r.latenciesMs, 99).toFixed(1)} ms, non-2xx ${r.failed}`
    console.log(`agent: ${CONNECTIONS} keep-alive connections, ${SECONDS}s each`)
    for (const s of SCENARIOS) {
      await run(s.body, '') // warm-up of every worker's sandbox
      const withPl = await run(s.body, '')
      const without = await run(s.body, '&source=-')
      console.log(line(`agent, ${s.name} script`, withPl))
      console.log(line(`agent, ${s.name} lines, pipeline off (source=-)`, without))
      console.log(`ratio pipeline/no pipeline: ${(withPl.lps / without.lps).toFixed(3)}`)
    }
    console.log(`agent peak RSS ${child.peakRssMb().toFixed(0)} MB`)
  } finally {
    await child.stop()
  }
}

async function main() {
  const dir = scriptsDir()
  try {
    await workers(dir)
    await agent(dir)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
