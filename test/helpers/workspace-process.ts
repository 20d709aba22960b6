/**
 * The workspace service as a child process (`ferry workspace`), so a test can kill it with
 * SIGKILL and start it again on the same data and port; and the reads a test needs to count
 * what it stored (through DQL, as any client would).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import readline from 'node:readline'

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname

export interface WorkspaceProcess {
  child: ChildProcess
  url: string
  port: number
  stop(signal?: NodeJS.Signals): Promise<void>
}

export interface WorkspaceData {
  dir: string
  token: string
  /** An API key of the workspace (DF-API-KEY). */
  key: string
  /** A running service on this data, once `start` was called. */
  current: WorkspaceProcess | null
  start(): Promise<WorkspaceProcess>
}

/** Environment for a workspace process: `extra` (an engine, say) over the test defaults. */
type Extra = Record<string, string>

function env(dir: string, port: number, extra: Extra): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ENV_DATA_DIR: dir,
    ENV_WORKSPACE_LISTEN: `127.0.0.1:${port}`,
    ENV_WORKSPACE_MAX_RESULT_ROWS: '1000000',
    ENV_LOG_LEVEL: 'warn',
    ...extra,
  }
}

function spawnService(dir: string, port: number, extra: Extra): Promise<WorkspaceProcess> {
  const config = path.join(dir, 'ferry.conf')
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', MAIN, 'workspace', '--config', config],
    {
      env: { ...env(dir, port, extra), ENV_LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  const logs: string[] = []
  child.stderr!.on('data', (d) => logs.push(String(d)))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start: ${logs.join('')}`)), 90_000)
    child.once('exit', (code) => reject(new Error(`workspace exited ${code}: ${logs.join('')}`)))
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /"listen":"[^"]*:(\d+)"/.exec(line)
      if (!m || !line.includes('"workspace_started"')) return
      clearTimeout(timer)
      const p = Number(m[1])
      const stop = (signal: NodeJS.Signals = 'SIGTERM') =>
        new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode) return done()
          child.once('exit', () => done())
          child.kill(signal)
        })
      resolve({ child, url: `http://127.0.0.1:${p}`, port: p, stop })
    })
  })
}

function freshDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-wsp-'))
  fs.writeFileSync(path.join(dir, 'ferry.conf'), '')
  return dir
}

/**
 * A new workspace `test` in a fresh data directory (in the engine `extra` names); `start` serves
 * it (same port each time).
 */
export function createWorkspaceData(extra: Extra = {}): WorkspaceData {
  const dir = freshDir()
  const out = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      MAIN,
      'workspace',
      'create',
      'test',
      '--json',
      '--config',
      path.join(dir, 'ferry.conf'),
    ],
    { env: env(dir, 0, extra), encoding: 'utf8' },
  )
  const created = JSON.parse(out) as { workspace: { token: string }; apiKey: { key: string } }
  return serving(dir, created.workspace.token, created.apiKey.key, extra)
}

/**
 * Another service instance of `of`'s workspace, in a directory and on a port of its own: for
 * engines the instances share (ClickHouse), started with `extra` as `of` was.
 */
export function anotherInstance(of: WorkspaceData, extra: Extra): WorkspaceData {
  return serving(freshDir(), of.token, of.key, extra)
}

function serving(dir: string, token: string, key: string, extra: Extra): WorkspaceData {
  let port = 0
  const data: WorkspaceData = {
    dir,
    token,
    key,
    current: null,
    async start() {
      data.current = await spawnService(dir, port, extra)
      port = data.current.port
      return data.current
    },
  }
  return data
}

/** Every value of field `field` in `M::<measurement>`, one per stored point. */
export async function storedValues(
  url: string,
  token: string,
  measurement: string,
  field: string,
): Promise<number[]> {
  const res = await fetch(`${url}/v1/query/raw?token=${token}`, {
    method: 'POST',
    body: JSON.stringify({
      queries: [{ query: `M::${measurement}:(${field})`, limit: 1_000_000, disable_slimit: true }],
    }),
  })
  if (res.status !== 200) throw new Error(`query answered ${res.status}: ${await res.text()}`)
  const body = (await res.json()) as { content: { series: { values: unknown[][] }[] }[] }
  return body.content[0].series.flatMap((s) => s.values.map((v) => Number(v[1])))
}

/** Lost (acknowledged but not stored) and duplicated (stored more than once) values. */
export function tally(acked: Iterable<number>, stored: number[]): { lost: number; dup: number } {
  const seen = new Map<number, number>()
  for (const v of stored) seen.set(v, (seen.get(v) ?? 0) + 1)
  let lost = 0
  for (const v of acked) if (!seen.has(v)) lost++
  let dup = 0
  for (const n of seen.values()) dup += n - 1
  return { lost, dup }
}
