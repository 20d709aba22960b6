/**
 * Runs the READMEs' shell examples as a reader would: the built agent started as the quick start
 * does (`node dist/src/main.js run` from the package root, shipped config), its ports and data
 * directory moved by ENV_* overrides that `localise` writes into each command, every example
 * checked by its entry in readme-checks.ts (an example with none fails), the README's "start it
 * again" restarting the agent. The files the five-minute tour writes into conf.d/ are removed
 * before and after. Used by the README walk and by the tour driven in a browser.
 */
import assert from 'node:assert/strict'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import readline from 'node:readline'
import { fileURLToPath } from 'node:url'
import { freePorts } from './ports.js'
import { CHECKS, ok, seen, type Ran } from './readme-checks.js'
import type { Example } from './readme.js'
import { TOUR_FILES } from './readme-tour-checks.js'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const BUILT = path.join(ROOT, 'dist/src/main.js')

const removeTourFiles = () =>
  TOUR_FILES.forEach((f) => fs.rmSync(path.join(ROOT, f), { force: true }))

export class ReadmeRun {
  agent: ChildProcess | null = null
  readonly logs: string[] = []
  env: NodeJS.ProcessEnv = {}
  ports = { agent: 0, workspace: 0 }
  dataDir = ''

  /**
   * Starts the agent (false when dist/ is not built); `extraEnv` adds ENV_* overrides, and each
   * of `listenEnv` gets a loopback address of its own. All ports are chosen together, so no two
   * are the same.
   */
  async setup(extraEnv: Record<string, string> = {}, listenEnv: string[] = []): Promise<boolean> {
    if (!fs.existsSync(BUILT)) return false
    removeTourFiles()
    const [agent, workspace, ...more] = await freePorts(2 + listenEnv.length)
    this.ports = { agent, workspace }
    const listens = Object.fromEntries(listenEnv.map((k, i) => [k, `127.0.0.1:${more[i]}`]))
    this.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-readme-'))
    const { FERRY_CONFIG: _config, FERRY_CONTAINER: _container, ...rest } = process.env
    this.env = {
      ...rest,
      ENV_HTTP_LISTEN: `127.0.0.1:${this.ports.agent}`,
      ENV_WORKSPACE_LISTEN: `127.0.0.1:${this.ports.workspace}`,
      ENV_DATA_DIR: this.dataDir,
      ...listens,
      ...extraEnv,
    }
    await this.startAgent()
    return true
  }

  async teardown(): Promise<void> {
    removeTourFiles()
    await this.stopAgent()
  }

  /** The command with the README's ports, paths and remembered ids replaced by this run's. */
  localise(command: string): string {
    return command
      .replaceAll(/(?<![\w/.-])logs(?=\/|\s|$)/g, `${this.dataDir}/logs`)
      .replaceAll(/(127\.0\.0\.1|localhost):9529/g, `127.0.0.1:${this.ports.agent}`)
      .replaceAll(/(127\.0\.0\.1|localhost):9528/g, `127.0.0.1:${this.ports.workspace}`)
      .replaceAll('data/workspace/', `${this.dataDir}/workspace/`)
      .replaceAll('ak_...', seen.keyId ?? 'ak_...')
  }

  sh(command: string): Ran {
    const r = spawnSync('sh', ['-c', command], {
      cwd: ROOT,
      env: this.env,
      encoding: 'utf8',
      timeout: 15_000,
    })
    return { status: r.status, stdout: r.stdout, stderr: r.stderr }
  }

  async startAgent(): Promise<void> {
    const agent = spawn(process.execPath, [BUILT, 'run'], {
      cwd: ROOT,
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    this.agent = agent
    agent.stderr!.on('data', (d) => this.logs.push(String(d)))
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start: ${this.logs.join('')}`)), 30_000)
      agent.once('exit', (code) => reject(new Error(`agent exited ${code}: ${this.logs.join('')}`)))
      readline.createInterface({ input: agent.stdout! }).on('line', (line) => {
        this.logs.push(line)
        if (line.includes('"agent_started"')) {
          clearTimeout(timer)
          resolve()
        }
      })
    })
  }

  async stopAgent(): Promise<void> {
    const agent = this.agent
    if (!agent || agent.exitCode !== null) return
    const exited = new Promise((resolve) => agent.once('exit', resolve))
    agent.kill('SIGTERM')
    await exited
  }

  /** Runs one example and checks its answer, again until its retry time when it has one. */
  async walk(e: Example): Promise<Ran | null> {
    const c = CHECKS.find((k) => k.match.test(e.command.trim()))
    assert.ok(c, `${e.file}:${e.line}: no check for this example:\n${e.command}`)
    if (c.skip) return (console.log(`skipped ${e.file}:${e.line} (${c.skip})`), null)
    if (c.restart) return this.stopAgent().then(() => this.startAgent().then(() => null))
    if (c.waitMs) await new Promise((resolve) => setTimeout(resolve, c.waitMs))
    const deadline = Date.now() + (c.retryMs ?? 0)
    for (;;) {
      const r = this.sh(this.localise(e.command))
      try {
        ok(r)
        await c.check!(r)
        return r
      } catch (err) {
        if (Date.now() > deadline) throw err
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
    }
  }
}
