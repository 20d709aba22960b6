/**
 * In-process costs of the polled inputs for `bench:inputs`: CPU time per `collect` of each
 * default host input, and a `prom` scrape of a large exposition served on loopback.
 */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { SCHEMA } from '../../src/config/schema.js'
import { validateInstance } from '../../src/inputs/conf/load.js'
import type { InputEnv, PolledInput } from '../../src/inputs/input.js'
import { INPUT_KINDS } from '../../src/inputs/kinds.js'
import { Prom, promInput } from '../../src/inputs/prom/prom.js'
import type { PromConf } from '../../src/inputs/prom/schema.js'

export interface HostCost {
  name: string
  intervalMs: number
  cpuMs: number
  points: number
}

const ctx = () => ({ signal: new AbortController().signal, now: BigInt(Date.now()) * 1_000_000n })

function env(errors: string[]): InputEnv {
  return {
    host: os.hostname(),
    version: 'bench',
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-inputs-')),
    events: { failed: (input: string, e: Error) => errors.push(`${input}: ${e.message}`) },
    collectorErrors: () => [],
  } as unknown as InputEnv
}

/** CPU ms (user + system) of one `collect`, the median of `runs`, after a warm-up run. */
export async function hostCosts(runs: number): Promise<HostCost[]> {
  const errors: string[] = []
  const out: HostCost[] = []
  for (const name of SCHEMA.agent.default_enabled_inputs.default) {
    const kind = INPUT_KINDS.get(name)!
    const problems: string[] = []
    const conf = validateInstance(kind, {}, name, problems)
    const input = kind.create(conf, env(errors)) as PolledInput
    // The first run primes the rate inputs (cpu, net, diskio): later ones compute deltas.
    let points = (await input.collect(ctx())).length
    const cpu: number[] = []
    for (let i = 0; i < runs; i++) {
      // Rate inputs skip a run whose counters did not move: let the clock tick between runs.
      await new Promise((r) => setTimeout(r, 50))
      const before = process.cpuUsage()
      points = (await input.collect(ctx())).length
      const d = process.cpuUsage(before)
      cpu.push((d.user + d.system) / 1000)
    }
    cpu.sort((a, b) => a - b)
    out.push({ name, intervalMs: input.interval, cpuMs: cpu[runs >> 1]!, points })
  }
  if (errors.length) console.log(`input errors: ${errors.slice(0, 3).join('; ')}`)
  return out
}

/** An exposition of `series` series: counters, gauges and a histogram, as exporters write. */
export function exposition(series: number): string {
  const lines: string[] = ['# TYPE app_requests_total counter']
  const third = Math.floor(series / 3)
  for (let i = 0; i < third; i++)
    lines.push(`app_requests_total{path="/api/${i}",code="${200 + (i % 5)}"} ${i * 3}`)
  lines.push('# TYPE app_queue_depth gauge')
  for (let i = 0; i < third; i++) lines.push(`app_queue_depth{queue="q${i}"} ${i % 97}`)
  lines.push('# TYPE app_latency_seconds histogram')
  const les = ['0.01', '0.1', '1', '+Inf']
  for (let i = 0; lines.length < series + 3; i++) {
    const le = les[i % les.length]!
    lines.push(`app_latency_seconds_bucket{route="r${i >> 2}",le="${le}"} ${i}`)
  }
  return lines.join('\n') + '\n'
}

export interface ScrapeCost {
  msPerScrape: number
  points: number
  pointsPerSecond: number
  bytes: number
}

/** Scrape + parse + map of a loopback endpoint, repeated for `seconds`, by the prom input. */
export async function promCost(series: number, seconds: number): Promise<ScrapeCost> {
  const body = exposition(series)
  const srv = http.createServer((_, res) => res.end(body))
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/metrics`
  const problems: string[] = []
  const raw = { urls: [url], max_series: series * 2, max_body_size: 64 << 20 }
  const conf = validateInstance(promInput, raw, 'prom', problems) as PromConf
  if (problems.length) throw new Error(problems.join('\n'))
  const errors: string[] = []
  const prom = new Prom(conf, env(errors), (p) => fs.readFileSync(p, 'utf8'))
  try {
    let points = (await prom.collect(ctx())).length // warm-up
    let n = 0
    const started = performance.now()
    while (performance.now() - started < seconds * 1000) {
      points = (await prom.collect(ctx())).length
      n++
    }
    if (errors.length) throw new Error(errors.join('\n'))
    const ms = (performance.now() - started) / n
    return { msPerScrape: ms, points, pointsPerSecond: (points * 1000) / ms, bytes: body.length }
  } finally {
    srv.closeAllConnections()
    await new Promise<void>((r) => srv.close(() => r()))
  }
}
