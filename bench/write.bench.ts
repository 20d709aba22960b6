/**
 * `npm run bench:write`: the write path's speed (issue "Agent core").
 *
 * 1. Single thread: the decode task on the calling thread, by the general path (parse, check,
 *    encode) and by the byte-level transcoder (`BENCH_DECODE_ONLY=1` stops here).
 * 2. The agent (compiled, its own process, decode workers) under keep-alive load of
 *    1000-point line protocol bodies for BENCH_SECONDS (default 15) with `?dry`, so the
 *    figure is parse and check, not buffering; then the same load against a bare node:http
 *    server that only reads the body, as a ratio.
 */
import { processTask } from '../src/ingest/process.js'
import { plainTask } from '../src/ingest/protocol.js'
import { makeHostBody } from './corpus-hosts.js'
import { startChild } from './lib/child.js'
import { percentile, runLoad } from './lib/load.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8)
const POINTS = 1000
const here = (p: string) => new URL(p, import.meta.url).pathname

/** `fast` false forces the general path (parse, check, encode) instead of the transcoder. */
async function singleThread(body: Buffer, fast: boolean, ms: number) {
  const started = performance.now()
  let n = 0
  while (performance.now() - started < ms) {
    const task = plainTask(body, 'metric', { extraTags: [['host', 'bench']] })
    const r = await processTask(task, null, null, fast)
    if (!r.ok) throw new Error(r.error.message)
    n++
  }
  const s = (performance.now() - started) / 1000
  return { pointsPerSec: (n * POINTS) / s, mbPerSec: (n * body.length) / s / 1e6 }
}

/** Both paths in alternating slices, so a busy machine slows both alike; medians of each. */
async function decodeFigures(body: Buffer) {
  const general: number[] = []
  const fast: number[] = []
  for (let round = 0; round < 7; round++) {
    general.push((await singleThread(body, false, 500)).pointsPerSec)
    fast.push((await singleThread(body, true, 500)).pointsPerSec)
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
  return { general: median(general), fast: median(fast) }
}

async function loadAgainst(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  path: string,
  body: Buffer,
) {
  const child = await startChild(args, env, ready)
  try {
    const r = await runLoad(child.url + path, body, SECONDS, CONNECTIONS)
    const pps = (r.ok * POINTS) / r.seconds
    return { ...r, pps, mbps: (r.ok * body.length) / r.seconds / 1e6, rss: child.peakRssMb() }
  } finally {
    await child.stop()
  }
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US')

async function main() {
  const body = Buffer.from(makeHostBody(POINTS))
  console.log(
    `body: ${POINTS} points, ${body.length} bytes (${(body.length / POINTS).toFixed(0)} B/point)`,
  )
  const d = await decodeFigures(body)
  const mb = (pps: number) => ((pps * body.length) / POINTS / 1e6).toFixed(1)
  console.log(
    `single thread decode, general path (parse+check+encode): ${fmt(d.general)} points/s, ${mb(d.general)} MB/s`,
  )
  console.log(
    `single thread decode, byte-level transcoder: ${fmt(d.fast)} points/s, ${mb(d.fast)} MB/s (${(d.fast / d.general).toFixed(2)}x the general path)`,
  )
  if (process.env.BENCH_DECODE_ONLY) return

  const agentEnv = {
    ENV_HTTP_LISTEN: '127.0.0.1:0',
    ENV_WORKSPACE_EMBEDDED: 'false',
    ENV_LOG_LEVEL: 'warn',
    ENV_DECODE_MAX_QUEUE: '1024',
  }
  const agent = await loadAgainst(
    [here('../src/main.js'), 'run'],
    { ...agentEnv, ENV_LOG_LEVEL: 'info' },
    /"event":"agent_started","listen":"([^"]+)"/,
    '/v1/write/metric?dry',
    body,
  )
  const base = await loadAgainst(
    [here('./lib/baseline-server.js')],
    {},
    /listening (\S+)/,
    '/',
    body,
  )
  const line = (name: string, r: typeof agent) =>
    `${name}: ${fmt(r.pps)} points/s, ${r.mbps.toFixed(1)} MB/s, p50 ${percentile(r.latenciesMs, 50).toFixed(2)} ms, p99 ${percentile(r.latenciesMs, 99).toFixed(2)} ms, peak RSS ${r.rss.toFixed(0)} MB, non-2xx ${r.failed}`
  console.log(`load: ${CONNECTIONS} keep-alive connections, ${SECONDS}s each`)
  console.log(line('ferry agent', agent))
  console.log(line('bare node:http (reads body only)', base))
  console.log(`ratio agent/baseline: ${(agent.pps / base.pps).toFixed(3)}`)
}

main().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
