/**
 * VictoriaMetrics as the peer of `bench:system`: the Debian package's single binary on a temp
 * storage dir, fed the same line-protocol bodies on `/write`; what it stored is read from its own
 * `vm_rows_added_to_storage_total` (one row per field: divided by the fields of a point).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort } from './system.js'

export const VM_BINARY = '/usr/bin/victoria-metrics'

export interface Victoria {
  url: string
  peakRssMb(): number
  rowsStored(): Promise<number>
  stop(): Promise<void>
}

export async function startVictoria(): Promise<Victoria | null> {
  if (!fs.existsSync(VM_BINARY)) return null
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-vm-'))
  const port = await freePort()
  const proc: ChildProcess = spawn(
    VM_BINARY,
    [`-storageDataPath=${dir}`, `-httpListenAddr=127.0.0.1:${port}`, '-loggerLevel=ERROR'],
    { stdio: 'ignore' },
  )
  const url = `http://127.0.0.1:${port}`
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
    peakRssMb() {
      const status = fs.readFileSync(`/proc/${proc.pid}/status`, 'utf8')
      return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024
    },
    async rowsStored() {
      const text = await (await fetch(`${url}/metrics`)).text()
      return Number(/^vm_rows_added_to_storage_total (\d+)/m.exec(text)?.[1] ?? 0)
    },
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
