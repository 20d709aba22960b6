/**
 * A peer binary (VictoriaMetrics, vmagent) as a benchmark child: its own temp dir and a free
 * loopback port, ready once `/health` answers; peak RSS from /proc; the dir removed on stop.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort } from './system.js'

export interface GoPeer {
  url: string
  pid: number | undefined
  peakRssMb(): number
  /** Its own `/metrics` text. */
  metrics(): Promise<string>
  stop(): Promise<void>
}

export function peakRssOf(pid: number | undefined): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024
}

/** Anonymous resident memory now (heap and native, without mapped file pages), in MB. */
export function anonRssOf(pid: number | undefined): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/RssAnon:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024
}

/**
 * Resident pages of the files mapped by `pid` whose path ends with `suffix` (LMDB's
 * `data.mdb`), and those files' size on disk, in MB, from /proc/<pid>/smaps.
 */
export function mappedRssOf(pid: number | undefined, suffix: string): [number, number] {
  const smaps = fs.readFileSync(`/proc/${pid}/smaps`, 'utf8')
  let rss = 0
  const files = new Set<string>()
  for (const entry of smaps.split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/)) {
    const head = entry.slice(0, entry.indexOf('\n'))
    if (!head.endsWith(suffix)) continue
    files.add(head.slice(head.indexOf('/')))
    rss += Number(/\nRss:\s+(\d+) kB/.exec(entry)?.[1] ?? 0)
  }
  const size = [...files].reduce((s, f) => s + fs.statSync(f).size, 0)
  return [rss / 1024, size / 2 ** 20]
}

/** Null when `binary` is not installed. `args` gets the temp dir and the listen address. */
export async function startGoPeer(
  binary: string,
  args: (dir: string, listen: string) => string[],
): Promise<GoPeer | null> {
  if (!fs.existsSync(binary)) return null
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-peer-'))
  const listen = `127.0.0.1:${await freePort()}`
  const proc: ChildProcess = spawn(binary, args(dir, listen), { stdio: 'ignore' })
  const url = `http://${listen}`
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (up) break
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    url,
    pid: proc.pid,
    peakRssMb: () => peakRssOf(proc.pid),
    metrics: async () => (await fetch(`${url}/metrics`)).text(),
    stop: () =>
      new Promise<void>((resolve) => {
        proc.once('exit', () => {
          fs.rmSync(dir, { recursive: true, force: true })
          resolve()
        })
        proc.kill('SIGTERM')
      }),
  }
}
