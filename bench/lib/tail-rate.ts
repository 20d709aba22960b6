/**
 * Log tailing throughput for `bench:inputs`: the compiled agent with a `[[inputs.logging]]`
 * file following a generated nginx access log from its beginning, uploading to a counting
 * loopback upstream; then the same lines POSTed to `/v1/write/logging?source=nginx`. Both
 * figures are lines delivered upstream per second, so both include the nginx script, the
 * disk buffer and the upload.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startChild } from './child.js'
import { CountSink } from './count-sink.js'

const here = (p: string) => new URL(p, import.meta.url).pathname
const MAIN = here('../../src/main.js')
const SCRIPTS = here('../../../conf.d/pipeline')
const AGENTS = [
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
  'curl/7.68.0',
]
const BODY_LINES = 1000

export function nginxLines(n: number): string[] {
  const out: string[] = []
  for (let i = 0; i < n; i++) {
    const ip = `10.1.${(i >> 8) & 255}.${i & 255}`
    const status = [200, 200, 304, 404, 500][i % 5]
    const ss = String(i % 60).padStart(2, '0')
    out.push(
      `${ip} - - [24/Mar/2021:13:54:${ss} +0800] "GET /shop/items/${i} HTTP/1.1" ${status} ${200 + (i % 900)} "-" "${AGENTS[i % 2]}"`,
    )
  }
  return out
}

async function until(cond: () => boolean, ms: number): Promise<void> {
  const t0 = performance.now()
  while (!cond()) {
    if (performance.now() - t0 > ms) throw new Error('timed out waiting for the upstream')
    await new Promise((r) => setTimeout(r, 20))
  }
}

const escape = (s: string) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')

export interface TailRate {
  lines: number
  tailLps: number
  writeLps: number
  peakRssMb: number
}

export async function tailRate(lines: number): Promise<TailRate> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-tail-'))
  const log = path.join(dir, 'access.log')
  const text = nginxLines(lines)
  fs.writeFileSync(log, '')
  const config = path.join(dir, 'ferry.conf')
  fs.writeFileSync(config, '')
  // The input file sits beside the main config: the agent reads *.conf from that folder.
  fs.writeFileSync(
    path.join(dir, 'nginx-log.conf'),
    `[[inputs.logging]]\n  logfiles = ["${log}"]\n  source = "nginx"\n` +
      `  pipeline = "nginx.js"\n  from_beginning = true\n`,
  )
  const sink = new CountSink()
  const upstream = await sink.start()
  const env = {
    ENV_HTTP_LISTEN: '127.0.0.1:0',
    ENV_WORKSPACE_EMBEDDED: 'false',
    ENV_DATA_DIR: path.join(dir, 'data'),
    ENV_DATAWAY: upstream,
    ENV_PIPELINE_DIR: SCRIPTS,
    ENV_PIPELINE_TIMEZONE: 'UTC',
    ENV_DEFAULT_ENABLED_INPUTS: '',
  }
  const agent = await startChild(
    [MAIN, 'run', '--config', config],
    env,
    /"event":"agent_started","listen":"([^"]+)"/,
  )
  try {
    // The lines arrive in one append once the agent is up, so start-up is not in the figure;
    // the tailer's poll interval (250 ms) is.
    const started = performance.now()
    fs.appendFileSync(log, text.join('\n') + '\n')
    await until(() => sink.points >= lines, 300_000)
    const tailLps = lines / ((performance.now() - started) / 1000)
    sink.points = 0
    // One client, 1000-line bodies, one at a time: the tailer is one reader too.
    const t0 = performance.now()
    for (let i = 0; i < lines; i += BODY_LINES) {
      const body = text
        .slice(i, i + BODY_LINES)
        .map((l) => `nginx message="${escape(l)}"`)
        .join('\n')
      const res = await fetch(`${agent.url}/v1/write/logging?source=nginx`, {
        method: 'POST',
        body,
      })
      if (!res.ok) throw new Error(`write: HTTP ${res.status} ${await res.text()}`)
    }
    await until(() => sink.points >= lines, 300_000)
    const writeLps = lines / ((performance.now() - t0) / 1000)
    return { lines, tailLps, writeLps, peakRssMb: agent.peakRssMb() }
  } finally {
    await agent.stop()
    await sink.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
