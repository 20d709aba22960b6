/**
 * Runs `ferry workspace ...` as a child process on the database in `dir`, with no config file
 * (`--config /dev/null`), so only the environment given here configures it. Synchronous: the
 * commands under test work on the file directly and end on their own.
 */
import { spawnSync } from 'node:child_process'

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname

export interface CliResult {
  status: number | null
  stdout: string
  stderr: string
}

export interface CliOptions {
  /** More environment, on top of this process's and the data directory. */
  env?: Record<string, string>
  /** Kills the command after this many ms (none by default). */
  timeout?: number
}

export function workspaceCli(dir: string, args: string[], opts: CliOptions = {}): CliResult {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', MAIN, 'workspace', ...args, '--config', '/dev/null'],
    {
      env: { ...process.env, ENV_WORKSPACE_DATA_DIR: dir, ...opts.env },
      encoding: 'utf8',
      timeout: opts.timeout,
    },
  )
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}
