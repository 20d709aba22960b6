/**
 * A real node-exporter on loopback (Debian's `prometheus-node-exporter` package), for the
 * `prom` input's tests. Optional on a developer machine (tests skip without it); CI installs
 * the package.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import { freePort } from './ports.js'

/** Debian installs it under this name; upstream releases call it `node_exporter`. */
export const NODE_EXPORTER = '/usr/bin/prometheus-node-exporter'

export const hasNodeExporter = () => fs.existsSync(NODE_EXPORTER)

export async function startNodeExporter(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort()
  // Only the collectors the test reads: the others probe hardware and systemd, which a
  // container may not have, and would only slow the scrape.
  const proc = spawn(
    NODE_EXPORTER,
    [
      `--web.listen-address=127.0.0.1:${port}`,
      '--collector.disable-defaults',
      '--collector.loadavg',
      '--collector.meminfo',
    ],
    { stdio: 'ignore' },
  )
  const stop = () =>
    new Promise<void>((resolve) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return resolve()
      proc.once('exit', () => resolve())
      proc.kill('SIGTERM')
    })
  return { url: `http://127.0.0.1:${port}`, stop }
}
