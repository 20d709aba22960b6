/**
 * The start-up probe. Opening a damaged LMDB file can take a process down, so the agent first
 * verifies its buffer read-only in a child process (`ferry buffer verify --json`: every record's
 * checksum, and the ledger's account of what the buffer held). Any damage (a damaged record, a
 * buffer holding less than its ledger says, a child that fails or crashes) moves the buffer
 * aside (never deleted) and salvages it from its raw bytes into a fresh one, again in a child.
 * A salvage keeps every intact copy of a record, where LMDB's tree may point at a damaged one,
 * so the agent never crash-loops, never refuses to start, and loses only what is truly damaged.
 *
 * What was found is returned for the log and the damaged-records counter: nothing is silent.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { join } from 'node:path'
import type { Category } from '../../shared/category.js'
import type { BufferReport } from './inspect.js'
import type { SalvageReport } from './salvage.js'

export interface ProbeResult {
  /** What happened, for the log. */
  note: string
  /** Where the damaged buffer was moved. */
  aside: string
  /**
   * Damaged records per category: those failing verification, or, where more, those the
   * ledger says existed and the salvage did not find (a lower bound either way).
   */
  damaged: Partial<Record<Category, number>>
  /** The salvage's account, when it completed. */
  report: SalvageReport | null
}

function parse<T>(out: string): T | null {
  try {
    return JSON.parse(out) as T
  } catch {
    return null
  }
}

function damagedCounts(
  verify: BufferReport | null,
  salvage: SalvageReport | null,
): ProbeResult['damaged'] {
  const out: ProbeResult['damaged'] = { ...verify?.damagedBy }
  for (const [c, n] of Object.entries(salvage?.lost ?? {}))
    out[c as Category] = Math.max(out[c as Category] ?? 0, n.records)
  return out
}

function why(verify: BufferReport | null, status: string): string {
  if (!verify) return `verification failed (${status})`
  const parts = verify.damaged ? [`${verify.damaged} damaged records`] : []
  if (verify.mismatch) parts.push(verify.mismatch)
  return parts.join('; ')
}

/** Null when the buffer at `path` is healthy (or absent). */
export function probeBuffer(path: string, mainScript: string): ProbeResult | null {
  if (!fs.existsSync(join(path, 'data.mdb'))) return null
  const run = (args: string[]) =>
    spawnSync(process.execPath, [...process.execArgv, mainScript, 'buffer', ...args], {
      stdio: ['ignore', 'pipe', 'ignore'],
      encoding: 'utf8',
      timeout: 10 * 60_000,
    })
  const check = run(['verify', '--json', '--path', path])
  if (check.status === 0) return null
  const verify = parse<BufferReport>(check.stdout)
  const aside = `${path}.damaged-${Date.now()}`
  fs.renameSync(path, aside)
  const salvage = run(['salvage', '--from', aside, '--to', path, '--json'])
  const report = salvage.status === 0 ? parse<SalvageReport>(salvage.stdout) : null
  const ended = report ? 'completed' : `ended early (${salvage.signal ?? salvage.status})`
  const status = check.signal ?? `exit ${check.status}`
  return {
    note: `buffer at ${path} is damaged (${why(verify, status)}); moved to ${aside}; salvage ${ended}`,
    aside,
    damaged: damagedCounts(verify, report),
    report,
  }
}
