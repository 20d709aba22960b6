/** Starts the real agent as a child process on a free loopback port and waits until it listens. */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import readline from 'node:readline'

export interface AgentProcess {
  child: ChildProcess
  url: string
  logs: string[]
  dataDir: string
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname

/** `env` overrides the test defaults below; a key set to undefined is left unset. */
export async function startAgent(
  env: Record<string, string | undefined> = {},
  configText?: string,
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-it-')),
  /** Generous by default: on a loaded 2-core machine tsx alone can take tens of seconds. */
  startTimeoutMs = 90_000,
): Promise<AgentProcess> {
  const config = path.join(dataDir, 'ferry.conf')
  // No text: keep the config a previous start left (a restart), else an empty one.
  if (configText !== undefined || !fs.existsSync(config)) fs.writeFileSync(config, configText ?? '')
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'run', '--config', config], {
    env: {
      ...process.env,
      ENV_HTTP_LISTEN: '127.0.0.1:0',
      ENV_WORKSPACE_LISTEN: '127.0.0.1:0',
      ENV_DATA_DIR: dataDir,
      ENV_LOG_LEVEL: 'info',
      // Tests send bursts from one client; the rate limit has tests of its own.
      ENV_REQUEST_RATE_LIMIT: '0',
      // Tests count the points they write: the host inputs stay off unless a test turns them on.
      ENV_DEFAULT_ENABLED_INPUTS: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const logs: string[] = []
  child.stderr!.on('data', (d) => logs.push(String(d)))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`agent did not start: ${logs.join('')}`)),
      startTimeoutMs,
    )
    child.once('exit', (code) => reject(new Error(`agent exited with ${code}: ${logs.join('')}`)))
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      logs.push(line)
      const m = /"listen":"([^"]+)"/.exec(line)
      if (m && line.includes('"agent_started"')) {
        clearTimeout(timer)
        resolve(`http://${m[1]}`)
      }
    })
  })
  const stop = (signal: NodeJS.Signals = 'SIGTERM') =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null) return resolve(child.exitCode)
      child.once('exit', (code) => resolve(code))
      child.kill(signal)
    })
  return { child, url, logs, dataDir, stop }
}
