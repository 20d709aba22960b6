/**
 * `npm run bench:pipeline`: nginx access log lines through the write path with the shipped
 * nginx script (conf.d/pipeline/logging/nginx.js: five groks, user_agent, casts, grouping,
 * default_time), beside the same load with the pipeline off (`source=-`), as a ratio.
 *
 * 1. Per worker: the decode task (parse, check, pipeline, encode) on the calling thread.
 * 2. The agent (compiled, its own process, one decode worker and sandbox per core) under
 *    keep-alive load of 1000-line bodies for BENCH_SECONDS (default 10) with `?dry`, so the
 *    figure is decode and pipeline, not the disk buffer.
 */
import { processTask } from '../src/ingest/process.js'
import { plainTask } from '../src/ingest/protocol.js'
import { PipelineHost } from '../src/pipeline/worker-host.js'
import { makeNginxBody } from './corpus.js'
import { startChild } from './lib/child.js'
import { percentile, runLoad } from './lib/load.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8)
const LINES = 1000
const here = (p: string) => new URL(p, import.meta.url).pathname
const SCRIPTS = here('../../conf.d/pipeline')
async function perWorker(body: Buffer, pipeline: boolean): Promise<number> {
  const host = new PipelineHost({
    dir: SCRIPTS,
    memoryBytes: 64 << 20,
    stackBytes: 512 << 10,
    batchTimeoutMs: 1000,
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

async function main() {
  const body = makeNginxBody(LINES)
  console.log(`body: ${LINES} nginx access lines as logging points, ${body.length} bytes`)
  const on = await perWorker(body, true)
  const off = await perWorker(body, false)
  console.log(`per worker, pipeline on:  ${fmt(on)} lines/s (decode + nginx script + encode)`)
  console.log(
    `per worker, pipeline off: ${fmt(off)} lines/s; ratio on/off ${(on / off).toFixed(3)}`,
  )

  const child = await startChild(
    [here('../src/main.js'), 'run'],
    {
      ENV_HTTP_LISTEN: '127.0.0.1:0',
      ENV_WORKSPACE_EMBEDDED: 'false',
      ENV_LOG_LEVEL: 'info',
      ENV_DECODE_MAX_QUEUE: '1024',
      ENV_PIPELINE_DIR: SCRIPTS,
      ENV_PIPELINE_TIMEZONE: 'UTC',
    },
    /"event":"agent_started","listen":"([^"]+)"/,
  )
  try {
    const run = async (q: string) => {
      const r = await runLoad(`${child.url}/v1/write/logging?dry${q}`, body, SECONDS, CONNECTIONS)
      return { ...r, lps: (r.ok * LINES) / r.seconds }
    }
    await run('') // warm-up of every worker's sandbox
    const withPl = await run('')
    const without = await run('&source=-')
    const line = (name: string, r: typeof withPl) =>
      `${name}: ${fmt(r.lps)} lines/s, p50 ${percentile(r.latenciesMs, 50).toFixed(1)} ms, p99 ${percentile(r.latenciesMs, 99).toFixed(1)} ms, non-2xx ${r.failed}`
    console.log(
      `agent: ${CONNECTIONS} keep-alive connections, ${SECONDS}s each, peak RSS ${child.peakRssMb().toFixed(0)} MB`,
    )
    console.log(line('agent, nginx script', withPl))
    console.log(line('agent, pipeline off (source=-)', without))
    console.log(`ratio pipeline/no pipeline: ${(withPl.lps / without.lps).toFixed(3)}`)
  } finally {
    await child.stop()
  }
}

main().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
