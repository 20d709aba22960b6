/**
 * `npm run bench:hostile`: what one hostile client costs the others (issue 14).
 *
 * 8 well-behaved clients (each its own loopback address) send small writes (10 typical points,
 * `?dry`) back to back, each within the per-client rate limit (RATE_LIMIT, at most PACE of it),
 * for BENCH_SECONDS (default 15): first alone, then while a ninth client
 * sends, in turn and without pause, the worst cases: a zstd window bomb, a gzip point bomb,
 * 64 MiB of tiny points, a flood of requests with rotating X-Forwarded-For, huge headers.
 * The hostile client runs in a process of its own (`lib/hostile-client.ts`), so what its
 * bodies cost to build and send is not counted as the agent's latency.
 * Prints the good clients' p50/p99 and accepted points/s for both runs and their ratio, what
 * the hostile requests were answered, and the agent's peak RSS. Targets: ratio >= 0.8, p99
 * under 200 ms, peak RSS under 400 MB. HOSTILE_CASES (e.g. `flood` or `zstd,gzip`) sends only
 * the cases whose names hold one of its words, to see what each costs.
 */
import { fork } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { MALLOC_TUNABLES } from '../src/shared/malloc.js'
import { makeHostBody } from './corpus-hosts.js'
import { startChild, type Child } from './lib/child.js'
import { startClients } from './lib/clients.js'
import { percentile, type LoadResult } from './lib/load.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15)
const CLIENTS = 8
const POINTS = 10
const RATE_LIMIT = 400
const PACE = 0.75
const here = (p: string) => new URL(p, import.meta.url).pathname
const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

type Answered = Record<string, Record<number, number>>

/** The hostile client in its own process (`lib/hostile-client.ts`), attacking until stopped. */
async function startHostile(url: string): Promise<{ stop(): Promise<Answered> }> {
  const proc = fork(here('./lib/hostile-client.js'), [url], { stdio: 'inherit' })
  const first = (): Promise<unknown> =>
    new Promise((resolve, reject) => {
      proc.once('message', resolve)
      proc.once('exit', (code) => reject(new Error(`the hostile client exited with ${code}`)))
    })
  await first() // 'ready': its bodies are built
  return {
    async stop() {
      const answered = first() as Promise<Answered>
      proc.send('stop')
      return answered
    },
  }
}

async function goodRun(child: Child, body: Buffer, hostile: boolean) {
  const target = `${child.url}/v1/write/metric?dry`
  const attack = hostile ? await startHostile(child.url) : null
  const clients = startClients(target, body, CLIENTS, RATE_LIMIT * PACE)
  await sleep(SECONDS * 1000)
  const r = await clients.stop()
  const answered = (await attack?.stop()) ?? {}
  return { r, answered }
}

/** Non-2xx answers by status (-1: no answer), so a failure names its cause. */
const failures = (r: LoadResult) =>
  JSON.stringify(Object.fromEntries(Object.entries(r.statuses).filter(([s]) => !/^2/.test(s))))

const line = (name: string, r: LoadResult) =>
  `${name}: ${fmt((r.ok * POINTS) / r.seconds)} points/s accepted, p50 ${percentile(r.latenciesMs, 50).toFixed(2)} ms, p99 ${percentile(r.latenciesMs, 99).toFixed(2)} ms, non-2xx ${r.failed} ${failures(r)}`

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-'))
  const child = await startChild(
    [here('../src/main.js'), 'run'],
    {
      ENV_HTTP_LISTEN: '127.0.0.1:0',
      ENV_WORKSPACE_EMBEDDED: 'false',
      ENV_DATA_DIR: dir,
      ENV_LOG_LEVEL: 'info',
      ENV_DECODE_MAX_QUEUE: '1024',
      // On, as shipped, but above what one good client sends.
      ENV_REQUEST_RATE_LIMIT: String(RATE_LIMIT),
      // As the service unit and the container start it.
      GLIBC_TUNABLES: MALLOC_TUNABLES,
    },
    /"event":"agent_started","listen":"([^"]+)"/,
  )
  try {
    const body = Buffer.from(makeHostBody(POINTS))
    await goodRun(child, body, false).catch(() => undefined) // warm-up pass is the first run
    const calm = await goodRun(child, body, false)
    const calmRss = child.peakRssMb()
    const attacked = await goodRun(child, body, true)
    const ratio = attacked.r.ok / attacked.r.seconds / (calm.r.ok / calm.r.seconds)
    console.log(
      `${CLIENTS} good clients, ${POINTS}-point writes (${body.length} bytes), at most ${RATE_LIMIT * PACE}/s each (limit ${RATE_LIMIT}), ${SECONDS}s per run`,
    )
    console.log(line('no hostile client  ', calm.r))
    console.log(line('with hostile client', attacked.r))
    console.log(`ratio (points/s with / without): ${ratio.toFixed(3)}`)
    console.log('hostile requests answered (status: count):')
    for (const [name, counts] of Object.entries(attacked.answered))
      console.log(`  ${name}: ${JSON.stringify(counts)}`)
    console.log(
      `agent peak RSS: ${calmRss.toFixed(0)} MB without, ${child.peakRssMb().toFixed(0)} MB in all`,
    )
  } finally {
    await child.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
