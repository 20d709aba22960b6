/** Child processes for benchmarks: the agent (compiled) or a bare baseline server, plus RSS. */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import readline from 'node:readline'

export interface Child {
  proc: ChildProcess
  url: string
  /** Peak resident set size so far, in MB (Linux VmHWM). */
  peakRssMb(): number
  stop(): Promise<void>
}

export async function startChild(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<Child> {
  // BENCH_NODE_ARGS (e.g. `--cpu-prof`) profiles the process under test.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)
  const proc = spawn(process.execPath, [...nodeArgs, ...args], {
    // One load generator is one client: the per-client rate limit would cap what is measured.
    // Container mode: defaults plus the ENV_* each benchmark sets, no config file.
    env: { ...process.env, FERRY_CONTAINER: '1', ENV_REQUEST_RATE_LIMIT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const url = await new Promise<string>((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)))
    readline.createInterface({ input: proc.stdout! }).on('line', (line) => {
      const m = ready.exec(line)
      if (m) resolve(`http://${m[1]}`)
    })
  })
  return {
    proc,
    url,
    peakRssMb() {
      const status = fs.readFileSync(`/proc/${proc.pid}/status`, 'utf8')
      return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024
    },
    stop: () =>
      new Promise<void>((resolve) => {
        proc.once('exit', () => resolve())
        proc.kill('SIGTERM')
      }),
  }
}
