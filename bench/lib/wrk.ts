/**
 * The load generator of `bench:peers`: wrk (its own process, native threads) when installed,
 * else the in-process node:http generator (`load.ts`). Either way the same pre-built body is
 * posted back to back on keep-alive connections and the same figures come back.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { percentile, runLoad } from './load.js'

export const WRK_BINARY = '/usr/bin/wrk'
const run = promisify(execFile)

export interface Load {
  ok: number
  failed: number
  seconds: number
  p50: number
  p99: number
  generator: string
}

export interface LoadShape {
  seconds: number
  connections: number
  threads: number
  headers: Record<string, string>
}

/** A wrk script posting the body file, printing one machine-readable line when done. */
function script(bodyFile: string, headers: Record<string, string>): string {
  const hs = Object.entries(headers).map(
    ([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`,
  )
  return [
    `local f = io.open(${JSON.stringify(bodyFile)}, "rb")`,
    'wrk.body = f:read("*a")',
    'f:close()',
    'wrk.method = "POST"',
    ...hs,
    'done = function(s, latency, requests)',
    '  local e = s.errors',
    '  io.write(string.format("RESULT %d %d %d %d %.0f %.0f\\n", s.requests, e.status,',
    '    e.connect + e.read + e.write + e.timeout, s.duration,',
    '    latency:percentile(50), latency:percentile(99)))',
    'end',
  ].join('\n')
}

async function runWrk(url: string, body: Buffer, shape: LoadShape): Promise<Load> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-wrk-'))
  try {
    const bodyFile = path.join(dir, 'body')
    fs.writeFileSync(bodyFile, body)
    fs.writeFileSync(path.join(dir, 'post.lua'), script(bodyFile, shape.headers))
    const args = [`-t${shape.threads}`, `-c${shape.connections}`, `-d${shape.seconds}s`]
    args.push('--timeout', '30s', '-s', path.join(dir, 'post.lua'), url)
    const { stdout } = await run(WRK_BINARY, args, { maxBuffer: 1 << 20 })
    const m = /RESULT (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)/.exec(stdout)
    if (!m) throw new Error(`wrk printed no result: ${stdout}`)
    const [requests, status, socket, us, p50, p99] = m.slice(1).map(Number)
    const failed = status + socket
    return {
      ok: requests - status,
      failed,
      seconds: us / 1e6,
      p50: p50 / 1000,
      p99: p99 / 1000,
      generator: 'wrk',
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

export async function loadTarget(url: string, body: Buffer, shape: LoadShape): Promise<Load> {
  if (fs.existsSync(WRK_BINARY)) return runWrk(url, body, shape)
  const r = await runLoad(url, body, shape.seconds, shape.connections, shape.headers)
  const [p50, p99] = [percentile(r.latenciesMs, 50), percentile(r.latenciesMs, 99)]
  return { ok: r.ok, failed: r.failed, seconds: r.seconds, p50, p99, generator: 'node:http' }
}

/** CPU seconds (user + system, all threads) the process has used so far. */
export function cpuSecondsOf(pid: number | undefined, thread?: number): number {
  const path = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`
  const stat = fs.readFileSync(path, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  // After the command: state is field 3, utime 14, stime 15 (1-based over the whole line).
  return (Number(fields[11]) + Number(fields[12])) / 100
}
