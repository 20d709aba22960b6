/**
 * `npm run bench:management`: what access control and tag persistence cost.
 *
 * 1. Small requests (a one-point write with `?dry`, as browser SDKs send) under keep-alive load
 *    against the agent with its whole middleware stack (timeout, CORS, loopback check), with
 *    the rate limiter off and then on (a limit no client reaches, so every request pays for
 *    its bucket), and against a bare node:http server, as ratios.
 * 2. Global tag changes persisted to a copy of the shipped config: one at a time (each waits
 *    for its rewrite), then a concurrent burst (applied as one edit).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startChild } from './lib/child.js'
import { percentile, runLoad, type LoadResult } from './lib/load.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8)
const TAG_CHANGES = 100
const here = (p: string) => new URL(p, import.meta.url).pathname
const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
const AGENT_READY = /"event":"agent_started","listen":"([^"]+)"/
const BODY = Buffer.from('view,app_id=a1,env=prod duration=12i,loading_time=3.5')

async function load(args: string[], env: Record<string, string>, ready: RegExp, p: string) {
  const child = await startChild(args, env, ready)
  await runLoad(`${child.url}${p}`, BODY, 1, CONNECTIONS) // warm-up
  const r = await runLoad(`${child.url}${p}`, BODY, SECONDS, CONNECTIONS, {
    Origin: 'https://shop.example.com',
  })
  await child.stop()
  return r
}

const rps = (r: LoadResult) => r.ok / r.seconds
const line = (name: string, r: LoadResult) =>
  `${name}: ${fmt(rps(r))} requests/s, p50 ${percentile(r.latenciesMs, 50).toFixed(2)} ms, p99 ${percentile(r.latenciesMs, 99).toFixed(2)} ms, non-2xx ${r.failed}`

async function requests(): Promise<void> {
  const agentArgs = [here('../src/main.js'), 'run']
  const env = {
    ENV_HTTP_LISTEN: '127.0.0.1:0',
    ENV_WORKSPACE_EMBEDDED: 'false',
    ENV_LOG_LEVEL: 'info',
    ENV_DECODE_MAX_QUEUE: '1024',
  }
  const path = '/v1/write/rum?dry'
  const off = await load(agentArgs, env, AGENT_READY, path)
  const on = await load(agentArgs, { ...env, ENV_REQUEST_RATE_LIMIT: '1e9' }, AGENT_READY, path)
  const base = await load([here('./lib/baseline-server.js')], {}, /listening (\S+)/, '/')
  console.log(`one-point writes, ${CONNECTIONS} keep-alive connections, ${SECONDS}s each`)
  console.log(line('agent, rate limiter off', off))
  console.log(line('agent, rate limiter on ', on))
  console.log(line('bare node:http (reads body only)', base))
  console.log(`ratio limiter on/off: ${(rps(on) / rps(off)).toFixed(3)}`)
  console.log(`ratio agent/baseline: ${(rps(off) / rps(base)).toFixed(3)}`)
}

async function tags(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-'))
  const conf = path.join(dir, 'ferry.conf')
  fs.copyFileSync(here('../../conf.d/ferry.conf'), conf)
  const child = await startChild(
    [here('../src/main.js'), 'run', '--config', conf],
    {
      ENV_HTTP_LISTEN: '127.0.0.1:0',
      ENV_WORKSPACE_EMBEDDED: 'false',
      ENV_DATA_DIR: dir,
      ENV_PIPELINE_ENABLE: 'false',
    },
    AGENT_READY,
  )
  const post = (q: string) => fetch(`${child.url}/v1/global/host/tags?${q}`, { method: 'POST' })
  let t0 = performance.now()
  for (let i = 0; i < TAG_CHANGES; i++) await post(`seq${i % 10}=v${i}`)
  const sequential = (performance.now() - t0) / TAG_CHANGES
  t0 = performance.now()
  await Promise.all(Array.from({ length: TAG_CHANGES }, (_, i) => post(`burst${i}=v${i}`)))
  const burst = performance.now() - t0
  await child.stop()
  console.log(
    `global tag changes persisted to the shipped config (${fs.statSync(conf).size} bytes):`,
  )
  console.log(`  one at a time: ${sequential.toFixed(1)} ms per change`)
  console.log(
    `  ${TAG_CHANGES} at once: ${burst.toFixed(0)} ms in all (${(burst / TAG_CHANGES).toFixed(2)} ms per change)`,
  )
  fs.rmSync(dir, { recursive: true, force: true })
}

async function main() {
  await requests()
  await tags()
}

main().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
