/**
 * `npm run bench:dialtest`:
 * 1. What the HTTP task's timing costs: the same loopback URL fetched bare with `fetch` and
 *    run as an HTTP dial test (fresh socket, socket-event timings, checks), median per request
 *    as a ratio.
 * 2. 100 concurrent dial tests against the agent while one-point writes continue: write
 *    latency p99 alone and during the burst.
 */
import fs from 'node:fs'
import http from 'node:http'
import type net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { runHttp } from '../src/dialtest/http/task.js'
import { NetGuard } from '../src/dialtest/guard.js'
import { startChild } from './lib/child.js'
import { percentile } from './lib/load.js'

const N = Number(process.env.BENCH_REQUESTS ?? 500)
const here = (p: string) => new URL(p, import.meta.url).pathname
const guard = new NetGuard({ internal: false, cidrs: [] })

async function median(f: () => Promise<unknown>): Promise<number> {
  const ms: number[] = []
  for (let i = 0; i < N; i++) {
    const t = performance.now()
    await f()
    ms.push(performance.now() - t)
  }
  return percentile(ms, 50)
}

async function writes(url: string, stop: () => boolean): Promise<number[]> {
  const ms: number[] = []
  while (!stop()) {
    const t = performance.now()
    const r = await fetch(`${url}/v1/write/metric`, { method: 'POST', body: 'cpu,host=a usage=1' })
    await r.arrayBuffer()
    ms.push(performance.now() - t)
  }
  return ms
}

async function main() {
  const target = http.createServer((_q, r) => r.end('hello'))
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(target.address() as net.AddressInfo).port}/`
  const task = { url, success_when: [{ status_code: [{ is: '200' }] }] }
  await median(() => fetch(url).then((r) => r.arrayBuffer()))
  const bare = await median(() => fetch(url).then((r) => r.arrayBuffer()))
  const dial = await median(() => runHttp(task, guard, 'bench'))
  console.log(
    `HTTP task ${dial.toFixed(3)} ms vs bare fetch ${bare.toFixed(3)} ms: ratio ${(dial / bare).toFixed(2)}`,
  )

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-'))
  const env = {
    ENV_HTTP_LISTEN: '127.0.0.1:0',
    ENV_DATA_DIR: dataDir,
    ENV_INPUT_DIALTESTING_ENABLE_DEBUG_API: 'true',
    ENV_INPUT_DIALTESTING_DEBUG_CONCURRENCY: '100',
    ENV_REQUEST_RATE_LIMIT: '0',
  }
  const agent = await startChild(
    [here('../src/main.js'), 'run'],
    env,
    /"event":"agent_started","listen":"([^"]+)"/,
  )
  try {
    let done = false
    setTimeout(() => (done = true), 3000)
    const alone = await writes(agent.url, () => done)
    done = false
    const w = writes(agent.url, () => done)
    const body = JSON.stringify({ task_type: 'http', task })
    const started = performance.now()
    const lat = await Promise.all(
      Array.from({ length: 100 }, async () => {
        const t = performance.now()
        const r = await fetch(`${agent.url}/v1/dialtesting/debug`, { method: 'POST', body })
        await r.arrayBuffer()
        return performance.now() - t
      }),
    )
    const burst = performance.now() - started
    setTimeout(() => (done = true), Math.max(0, 3000 - burst))
    const during = await w
    console.log(
      `100 concurrent dial tests: p50 ${percentile(lat, 50).toFixed(1)} ms, p99 ${percentile(lat, 99).toFixed(1)} ms, all done in ${burst.toFixed(0)} ms`,
    )
    console.log(
      `write p99 alone ${percentile(alone, 99).toFixed(2)} ms, during the burst ${percentile(during, 99).toFixed(2)} ms`,
    )
  } finally {
    await agent.stop()
    target.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
