/**
 * A real Prometheus server on loopback (Debian's `prometheus` package) scraping one target
 * every second, for integration tests; and `promtool check metrics`. Both are optional on a
 * developer machine (tests skip without them); CI installs the package.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort } from './ports.js'

/** `promtool check metrics` on a scrape: its exit code and complaints. */
export function promtoolCheck(text: string): { status: number | null; output: string } {
  const r = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' })
  return { status: r.status, output: `${r.stdout}${r.stderr}` }
}

export interface PromServer {
  url: string
  proc: ChildProcess
  /** The first sample of an instant query, or null when the result is empty. */
  query(expr: string): Promise<number | null>
  stop(): Promise<void>
}

export async function startPrometheus(target: string): Promise<PromServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-prom-'))
  const config = path.join(dir, 'prometheus.yml')
  fs.writeFileSync(
    config,
    `global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n` +
      `  - job_name: ferry\n    static_configs:\n      - targets: ['${target}']\n`,
  )
  const port = await freePort()
  const proc = spawn(
    'prometheus',
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: 'ignore' },
  )
  const url = `http://127.0.0.1:${port}`
  const query = async (expr: string) => {
    const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(expr)}`)
    const body = (await res.json()) as { data?: { result?: { value: [number, string] }[] } }
    const first = body.data?.result?.[0]
    return first ? Number(first.value[1]) : null
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        fs.rmSync(dir, { recursive: true, force: true })
        resolve()
      }
      if (proc.exitCode !== null) return done()
      proc.once('exit', done)
      proc.kill('SIGTERM')
    })
  return { url, proc, query, stop }
}
