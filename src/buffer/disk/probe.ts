/**
 * The start-up probe. Opening a damaged LMDB file can take a process down, so the agent first
 * verifies its buffer in a child process (`ferry buffer verify --repair`, which drops damaged
 * records as opening the buffer would, and refuses a buffer its ledger says lost data). If that
 * child fails, the buffer is moved aside (never deleted) and salvaged from its raw bytes into a
 * fresh one, again in a child, so the agent never crash-loops on a bad buffer.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import type { SalvageReport } from './salvage.js'

export interface ProbeResult {
  /** What happened, for the log. */
  note: string
  /** The salvage's account, when it completed. */
  report: SalvageReport | null
}

function parse(out: string): SalvageReport | null {
  try {
    return JSON.parse(out) as SalvageReport
  } catch {
    return null
  }
}

/** Null when the buffer at `path` is healthy (or absent). */
export function probeBuffer(path: string, mainScript: string): ProbeResult | null {
  if (!fs.existsSync(path)) return null
  const run = (args: string[]) =>
    spawnSync(process.execPath, [...process.execArgv, mainScript, 'buffer', ...args], {
      stdio: ['ignore', 'pipe', 'ignore'],
      encoding: 'utf8',
      timeout: 10 * 60_000,
    })
  const check = run(['verify', '--repair', '--path', path])
  if (check.status === 0) return null
  const aside = `${path}.damaged-${Date.now()}`
  fs.renameSync(path, aside)
  const salvage = run(['salvage', '--from', aside, '--to', path, '--json'])
  const report = salvage.status === 0 ? parse(salvage.stdout) : null
  const ended = report ? 'completed' : `ended early (${salvage.signal ?? salvage.status})`
  return {
    note: `buffer at ${path} failed verification (${check.signal ?? `exit ${check.status}`}); moved to ${aside}; salvage ${ended}`,
    report,
  }
}
